// Command uptide is the upgrade planner for npm and TypeScript repositories.
package main

import (
	"os"

	"github.com/uptide/uptide/internal/cli"
)

func main() { os.Exit(cli.Main()) }
