package cli

import (
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/uptide/uptide/fix/isolate"
)

// CleanOptions are the inputs of `uptide clean`.
type CleanOptions struct {
	*Globals
	All bool
	// Root is the runs root; empty is isolate.Root().
	Root string
}

// cleanReport is clean's --json data.
type cleanReport struct {
	Root    string   `json:"root"`
	Removed []string `json:"removed"`
	Kept    []string `json:"kept"`
}

func newCleanCmd(g *Globals) *cobra.Command {
	o := &CleanOptions{Globals: g}
	cmd := &cobra.Command{
		Use:   "clean",
		Short: "Remove the private clones fix kept, older than 7 days (--all: every one)",
		Long: "fix keeps its private clone when a run failed, was interrupted, when --keep was passed, when the\n" +
			"checkout changed during the run, or when the clone holds the only copy of its commits. clean removes\n" +
			"those older than 7 days; --all removes every kept one. It only ever deletes a directory directly\n" +
			"inside uptide's runs root, named like a run and carrying the run marker.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runClean(o) },
	}
	cmd.Flags().BoolVar(&o.All, "all", false, "remove every kept clone, whatever its age")
	return cmd
}

func runClean(o *CleanOptions) error {
	root := o.Root
	if root == "" {
		root = isolate.Root()
	}
	removed, err := isolate.Clean(root, time.Now(), o.All)
	if err != nil {
		return err
	}
	left, err := isolate.List(root)
	if err != nil {
		return err
	}
	rep := cleanReport{Root: root, Removed: []string{}, Kept: []string{}}
	for _, k := range removed {
		rep.Removed = append(rep.Removed, k.Dir)
	}
	for _, k := range left {
		rep.Kept = append(rep.Kept, k.Dir)
	}
	if o.JSON {
		return o.writeEnvelope(Envelope{SchemaVersion: SchemaVersion, Command: "clean", Data: rep, ExitCode: ExitOK, Warnings: []string{}})
	}
	if len(removed) == 0 {
		fmt.Fprintf(o.Stdout, "nothing to remove in %s\n", root)
	}
	for _, k := range removed {
		fmt.Fprintf(o.Stdout, "removed %s (%s, %s)\n", k.Dir, k.Branch, k.Created.Format("2006-01-02"))
	}
	if n := len(left); n > 0 {
		fmt.Fprintf(o.Stdout, "%d kept clones are younger than 7 days (uptide clean --all removes them)\n", n)
	}
	return nil
}
