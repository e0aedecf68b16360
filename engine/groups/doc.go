// Package groups owns the rules that make dependencies move together: the
// release groups list draws among the direct dependencies (one family on one
// major, explicit dependencies across majors, lockstep peer links, shared
// exact pins, each only between workspaces that can see each other), where a group's
// members go when its lead moves to a chosen target (MemberTargets), and the
// companion plan of one upgrade (the versions that agree with the target,
// @types releases, lockstep releases, the transitive closure and the
// conflicts no release resolves).
//
// Everything here is a pure function of the dependencies and the packuments
// the registry returned: no I/O, deterministic output.
package groups
