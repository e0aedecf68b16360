// The test setup: imported by nobody, it augments every assertion.
import 'assertkit-dom/assertkit';
