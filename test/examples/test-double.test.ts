// Runs the user-facing suite of examples/test-double/ as part of this project's tests: vitest
// collects the describe blocks the imported file registers. The project's vitest config only
// includes test/**, so the example is not picked up (and run twice) on its own.
import '../../examples/test-double/checkout.test.js';
