import { requireRspec } from '../../support/rubyToolchain';
import { describeLanguageEval } from './languageEval';

// The held-back spec runs from acceptance/ on the final commit, loading the session's lib/; a case is an example.
describeLanguageEval({
  language: 'ruby',
  runner: 'the real rspec',
  requireToolchain: requireRspec,
  // A failing case by its example's words, which end with the canonical case's UUID.
  failingCase: /\(acceptance\) .* \[[0-9a-f-]{36}\]$/,
});
