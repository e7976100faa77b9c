import { strict as assert } from 'node:assert';
import { gitEnvironment } from '../../../src/core/hostGit/gitEnvironment';

describe('gitEnvironment', () => {
  it('drops credentials, program launchers and every GIT_* variable but identity and config isolation', () => {
    const { env, allow } = gitEnvironment({
      PATH: '/bin',
      HOME: '/h',
      OPENAI_API_KEY: 'sk-x',
      GH_TOKEN: 't',
      GIT_DIR: '/elsewhere',
      GIT_WORK_TREE: '/elsewhere',
      GIT_CONFIG_GLOBAL: '/tmp/evil',
      git_editor: 'vim',
      GIT_SSH_COMMAND: 'evil',
      EDITOR: 'vi',
      GIT_AUTHOR_NAME: 'Ada',
      GIT_CONFIG_NOSYSTEM: '1',
    });
    assert.deepEqual(env, { PATH: '/bin', HOME: '/h', GIT_AUTHOR_NAME: 'Ada', GIT_CONFIG_NOSYSTEM: '1' });
    assert.deepEqual(allow.sort(), ['GIT_AUTHOR_NAME', 'GIT_CONFIG_NOSYSTEM']);
  });
});
