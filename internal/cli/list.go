package cli

import (
	"context"
	"fmt"
	"io"
	"runtime/debug"
	"sort"
	"time"

	"github.com/spf13/cobra"

	"github.com/uptide/uptide/engine"
	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/engine/registry"
	"github.com/uptide/uptide/internal/term"
	"github.com/uptide/uptide/view"
)

// ListOptions are the inputs of `uptide list`.
type ListOptions struct {
	*Globals
	// All shows minor and patch rows too (they are collapsed otherwise).
	All bool
}

func newListCmd(g *Globals) *cobra.Command {
	o := &ListOptions{Globals: g}
	cmd := &cobra.Command{
		Use:   "list",
		Short: "Every direct dependency, installed → latest, with release groups and companions",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runList(cmd, o)
		},
	}
	cmd.Flags().BoolVar(&o.All, "all", false, "show minor and patch updates too")
	return cmd
}

func runList(cmd *cobra.Command, o *ListOptions) error {
	if o.Env.Get("GOGC") == "" {
		// The registry client keeps a bounded budget of decoded documents
		// (registry.DefaultMaxKeptTotal for a hundred dependencies); the
		// collector's default lets garbage reach the live heap again on
		// top of it while huge documents decode. A third of that keeps a
		// 100-dependency list near 250 MB whatever the registry sends (at
		// GOGC 50 it reached 312 MB), at a little more collector work on
		// a heap that is small otherwise. A user's GOGC wins.
		defer debug.SetGCPercent(debug.SetGCPercent(listGCPercent))
	}
	return list(cmd.Context(), o, nil, "list")
}

// listGCPercent is list's GOGC.
const listGCPercent = 33

// list runs discovery and renders it; client is nil except for the demo,
// which brings its own registry.
func list(ctx context.Context, o *ListOptions, client *registry.Client, command string) error {
	progress := term.NewProgress(o.Stderr, o.Term.Progress)
	timing := map[engine.Phase]time.Duration{}
	rep, _, err := engine.Discover(ctx, engine.DiscoverOptions{
		Cwd: o.Cwd, Env: o.Env, Timing: timing, Client: client,
		Events: func(e engine.Event) {
			if e.Phase == engine.PhaseRegistry && e.Total > 0 {
				progress.Update(e.Finished, "registry %d/%d", e.Done, e.Total)
			}
		},
	})
	progress.Clear()
	if err != nil {
		return err
	}
	code := ExitOK
	if len(rep.NotChecked) > 0 || len(rep.Problems) > 0 {
		code = ExitIncomplete
	}
	if o.Verbose {
		writeTimings(o.Stderr, timing)
	}
	if o.JSON {
		env := Envelope{SchemaVersion: SchemaVersion, Command: command, Data: rep, ExitCode: code, Warnings: listWarnings(rep)}
		if o.Verbose {
			env.Timing = timingMillis(timing)
		}
		if err := o.writeEnvelope(env); err != nil {
			return err
		}
	} else {
		renderList(o.Stdout, view.NewList(rep, o.All), palette{on: o.Term.Color}, o.Term.Width)
	}
	if code != ExitOK {
		return silentExit(code)
	}
	return nil
}

// listWarnings are the envelope's warnings: what makes the result partial.
func listWarnings(rep *model.DiscoverReport) []string {
	var w []string
	for _, p := range rep.Problems {
		w = append(w, problemLine(p))
	}
	for _, h := range view.NotCheckedByHost(rep.NotChecked) {
		w = append(w, fmt.Sprintf("%d packages not checked (%s: %s)", len(h.Names), h.Host, h.Reason))
	}
	return w
}

func problemLine(p model.Problem) string { return view.ProblemLine(p) }

func writeTimings(w io.Writer, t map[engine.Phase]time.Duration) {
	var keys []string
	for p := range t {
		keys = append(keys, string(p))
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(w, "uptide: %-10s %v\n", k, t[engine.Phase(k)].Round(time.Millisecond))
	}
}

func timingMillis(t map[engine.Phase]time.Duration) map[string]int64 {
	out := map[string]int64{}
	for p, d := range t {
		out[string(p)] = d.Milliseconds()
	}
	return out
}
