import { requireGo } from '../../support/goToolchain';
import { describeLanguageEval } from './languageEval';

// The held-back tests are table tests in the kata's package, beside the session's own tests; a case is a subtest.
describeLanguageEval({
  language: 'go',
  runner: 'the real go toolchain',
  requireToolchain: requireGo,
  // A failing case by its subtest's name, which ends with the canonical case's UUID.
  failingCase: /^TestAcceptance\w+ > .*_\[[0-9a-f-]{36}\]$/,
});
