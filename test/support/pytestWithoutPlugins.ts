// Loaded with test/support/isolatedCache.ts (it imports this file). The pytest plugins installed on a
// machine (pytest-benchmark probing the CPU, hypothesis, ...) load into every pytest run unless told not
// to, and cost seconds each (measured here: ~11 s against ~3 s per run under load): a Python kata session
// runs pytest a dozen times. None of them matters to what the tests check (the kata's own tests, counted
// by the supervisor), so the sessions this test process runs call pytest without them.
process.env.PYTEST_DISABLE_PLUGIN_AUTOLOAD = '1';

export {};
