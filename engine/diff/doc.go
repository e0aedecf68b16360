// Package diff is the contract diff: given the public API surfaces of two
// versions of a package, it says what changed and what that means for a
// consumer. It owns the raw diff by canonical path (with export-shape
// equivalence), the classification rules (one table row per rule, with an
// id, a title and a test), signature comparison without the type checker,
// refinement with the checker's assignability answers, rename hints and the
// folding that decides which breaking changes are genuinely public.
//
// Everything here is a pure function of its inputs: no I/O, no clock, no
// map iteration order in the output. Equal inputs give identical JSON.
package diff
