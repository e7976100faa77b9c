import { requirePhpunit } from '../../support/phpToolchain';
import { describeLanguageEval } from './languageEval';

// The held-back test runs from acceptance/ on the final commit, requiring the session's src/<Class>.php; a case is a
// data set of a data provider.
describeLanguageEval({
  language: 'php',
  runner: 'the real phpunit',
  requireToolchain: requirePhpunit,
  // A failing case by its data set, the canonical case's words ending with its UUID.
  failingCase: /AcceptanceTest > test\w+ with data set ".* \[[0-9a-f-]{36}\]"$/,
});
