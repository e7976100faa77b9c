import { requireMaven } from '../../support/javaToolchain';
import { describeLanguageEval } from './languageEval';

// The held-back class runs from src/test/java/kata/ on the final commit, alone (-Dtest), calling the session's
// src/main/java/kata/<Class>.java; a case is a @Test method.
describeLanguageEval({
  language: 'java',
  runner: 'the real mvn and Surefire',
  requireToolchain: requireMaven,
  // A failing case by its method: the canonical case's words ending with its UUID's first 8 digits.
  failingCase: /^\w+AcceptanceTest > \w+_[0-9a-f]{8}$/,
});
