package model

// Lockfile is a lockfile's base name and the package manager family that
// writes it (npm, pnpm, yarn or bun: the command users type).
type Lockfile struct {
	Name, Writer string
	// Binary: bun's binary bun.lockb, known but never read.
	Binary bool
}

// lockfiles are every lockfile name there is, most authoritative first
// (npm itself prefers npm-shrinkwrap.json over package-lock.json): the one
// table the lockfile reader, the repository loader and fix read.
var lockfiles = []Lockfile{
	{Name: "pnpm-lock.yaml", Writer: "pnpm"},
	{Name: "npm-shrinkwrap.json", Writer: "npm"},
	{Name: "package-lock.json", Writer: "npm"},
	{Name: "yarn.lock", Writer: "yarn"},
	{Name: "bun.lock", Writer: "bun"},
	{Name: "bun.lockb", Writer: "bun", Binary: true},
}

// Lockfiles are the lockfile names, most authoritative first.
func Lockfiles() []Lockfile { return append([]Lockfile(nil), lockfiles...) }

// LockfileWriter is the manager family that writes a lockfile of this base
// name, bun.lockb included; "" for a file that is no lockfile.
func LockfileWriter(base string) string {
	for _, l := range lockfiles {
		if l.Name == base {
			return l.Writer
		}
	}
	return ""
}
