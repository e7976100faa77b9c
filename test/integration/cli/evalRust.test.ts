import { requireCargo } from '../../support/rustToolchain';
import { describeLanguageEval } from './languageEval';

// The held-back integration test runs as tests/<crate>.rs on the final commit, alone (cargo test --test <crate>),
// calling the session's src/lib.rs; a case is a #[test] fn.
describeLanguageEval({
  language: 'rust',
  runner: 'the real cargo',
  requireToolchain: requireCargo,
  // A failing case by its function: the canonical case's words ending with its UUID's first 8 digits.
  failingCase: /^[a-z0-9_]+_[0-9a-f]{8}$/,
});
