// Package environ is the environment as a value: the KEY=VALUE list
// os.Environ gives, read by lookup, so code that consults the environment
// (the cache root, color, the CLI's tokens) can be handed one instead of
// reading the process's, and tests need not change the process's.
package environ

import (
	"os"
	"strings"
)

// Env is an environment in os.Environ's form. A key listed twice has its
// last value, as a child process started with it sees.
type Env []string

// Process is the environment of this process.
func Process() Env { return Env(os.Environ()) }

// Lookup returns key's value and whether key is set.
func (e Env) Lookup(key string) (string, bool) {
	for i := len(e) - 1; i >= 0; i-- {
		if k, v, ok := strings.Cut(e[i], "="); ok && k == key {
			return v, true
		}
	}
	return "", false
}

// Get returns key's value, "" when unset.
func (e Env) Get(key string) string {
	v, _ := e.Lookup(key)
	return v
}
