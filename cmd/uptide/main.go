// Command uptide is the upgrade planner for npm and TypeScript repositories.
package main

import (
	"os"

	"github.com/uptide/uptide/internal/cli"
)

// main is the one place the process's streams and environment are read:
// every command gets them through the factory.
func main() {
	os.Exit(cli.Main(cli.Factory{
		IO:  cli.IO{In: os.Stdin, Out: os.Stdout, Err: os.Stderr},
		Env: os.Environ(),
	}, os.Args[1:]))
}
