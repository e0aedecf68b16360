// Package fix owns `uptide fix`: it turns a checked upgrade into a verified
// branch without touching the user's checkout. It checks the upgrade first
// (engine.Check), works in a private clone (fix/isolate), bumps and installs
// with the repository's own package manager, scripts off (fix/managers),
// applies the accepted patches exactly, one commit each, and verifies with
// fresh programs of the repository's own compiler against the pre-upgrade
// baseline, its tests and its style tools (fix/verify). The checkout gains a
// branch ref and the stored run, nothing else. The run's steps, in order
// and with what runs beside what, are one list: steps in pipeline.go.
package fix
