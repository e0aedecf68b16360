package cli

import (
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/uptide/uptide/engine"
	"github.com/uptide/uptide/engine/diff"
	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/engine/model/path"
	"github.com/uptide/uptide/engine/typescript"
	"github.com/uptide/uptide/internal/term"
)

// DiffOptions are the inputs of `uptide diff`.
type DiffOptions struct {
	*Globals
	Name, From, To string
	// All shows every change, including additive, low-confidence, internal
	// and folded ones.
	All bool
}

func newDiffCmd(g *Globals) *cobra.Command {
	o := &DiffOptions{Globals: g}
	cmd := &cobra.Command{
		Use:   "diff <package> <from> <to>",
		Short: "The classified changes to a package's public API between two published versions",
		Long: "diff fetches both versions from the registry, reads their declarations with the TypeScript\n" +
			"compiler and classifies every change to the public surface. Versions may be dist-tags.",
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) != 3 {
				return usageError("diff needs a package and two versions: uptide diff zod 3.25.76 4.1.12")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Name, o.From, o.To = args[0], args[1], args[2]
			return runDiff(cmd, o)
		},
	}
	cmd.Flags().BoolVar(&o.All, "all", false, "show every change, including additive, low-confidence and internal ones")
	return cmd
}

func runDiff(cmd *cobra.Command, o *DiffOptions) error {
	progress := term.NewProgress(o.Stderr, o.Term.Progress)
	rep, err := engine.Diff(cmd.Context(), engine.DiffOptions{
		Name: o.Name, From: o.From, To: o.To, Cwd: o.Cwd, Env: o.Env,
		Events: func(e engine.Event) {
			if line, force, ok := diffProgressLine(o, e); ok {
				progress.Update(force, "%s", line)
			}
		},
	})
	progress.Clear()
	if err != nil {
		var nt *typescript.NoTypesError
		if errors.As(err, &nt) {
			return &exitError{code: ExitIncomplete, err: fmt.Errorf("%w (for a package typed by DefinitelyTyped, diff @types/%s)", err, typesName(o.Name))}
		}
		return err
	}
	code := ExitOK
	if rep.Summary.PublicBreaking > 0 {
		code = ExitBreaking
	}
	if o.JSON {
		if err := o.writeEnvelope(Envelope{SchemaVersion: SchemaVersion, Command: "diff", Data: rep, ExitCode: code, Warnings: rep.Notes}); err != nil {
			return err
		}
	} else {
		renderDiff(o.Stdout, rep, o.All, palette{on: o.Term.Color})
	}
	if code != ExitOK {
		return silentExit(code)
	}
	return nil
}

// diffProgressLine is the progress line an engine event draws. The
// checker's comparison counts the paths it has answered out of those asked,
// like the registry's done/total: it is the phase that can take a while.
// Within a phase only its first and last lines are forced; the rest are
// drawn at the progress line's own rate.
func diffProgressLine(o *DiffOptions, e engine.Event) (line string, force bool, ok bool) {
	switch e.Phase {
	case engine.PhaseFetch:
		return fmt.Sprintf("fetching %s %s and %s", o.Name, o.From, o.To), true, true
	case engine.PhaseCompiler:
		return e.Package, true, true
	case engine.PhaseSurface:
		return "reading the declarations of " + e.Package, true, true
	case engine.PhaseCompare:
		return fmt.Sprintf("comparing types with the checker %d/%d", e.Done, e.Total), e.Done == 0 || e.Finished, true
	}
	return "", false, false
}

// typesName is the DefinitelyTyped package of a package name.
func typesName(name string) string {
	if strings.HasPrefix(name, "@") {
		return strings.Replace(strings.TrimPrefix(name, "@"), "/", "__", 1)
	}
	return name
}

// renderDiff prints the summary, then the genuinely public breaking changes
// grouped by container (every change with all).
func renderDiff(w io.Writer, rep *model.DiffReport, all bool, p palette) {
	s := rep.Summary
	fmt.Fprintf(w, "%s %s %s → %s · read with %s\n", p.bold("uptide diff"), rep.Package, rep.From, rep.To, rep.Compiler)
	fmt.Fprintf(w, "  %d → %d symbols · %s (%d genuinely public) · %d additive · %d deprecated\n",
		s.SymbolsFrom, s.SymbolsTo, p.red(fmt.Sprintf("%d breaking", s.BySeverity[model.Breaking])), s.PublicBreaking,
		s.BySeverity[model.Additive], s.BySeverity[model.Deprecated])
	var kinds []string
	for k, n := range s.ByKind {
		kinds = append(kinds, fmt.Sprintf("%s %d", k, n))
	}
	sort.Strings(kinds)
	if len(kinds) > 0 {
		fmt.Fprintf(w, "  %s\n", p.dim("by kind: "+strings.Join(kinds, " · ")))
	}

	shown := diff.GenuinelyPublic(rep.Changes)
	title := "Breaking changes (genuinely public), by container"
	if all {
		shown = rep.Changes
		title = "Every change, by container"
	}
	if len(shown) == 0 {
		fmt.Fprintf(w, "\n  %s\n", p.green("No breaking change to the public API."))
	} else {
		fmt.Fprintf(w, "\n%s\n", p.bold(title))
		renderByContainer(w, shown, p)
	}
	for _, n := range rep.Notes {
		fmt.Fprintf(w, "\n  %s\n", p.yellow("note: "+n))
	}
	if hidden := len(rep.Changes) - len(shown); hidden > 0 {
		fmt.Fprintf(w, "\n  %s\n", p.dim(fmt.Sprintf("%d more changes (additive, deprecated, low-confidence, internal or folded into a parent): --all shows them", hidden)))
	}
}

func renderByContainer(w io.Writer, changes []model.Change, p palette) {
	byParent := map[string][]model.Change{}
	var parents []string
	for _, c := range changes {
		parent := "(top level)"
		if pp, err := path.Parse(c.Path); err == nil && pp.Len() > 1 {
			parent = pp.Parent().String()
		}
		if _, ok := byParent[parent]; !ok {
			parents = append(parents, parent)
		}
		byParent[parent] = append(byParent[parent], c)
	}
	sort.Strings(parents)
	for _, parent := range parents {
		fmt.Fprintf(w, "  %s\n", p.cyan(parent))
		for _, c := range byParent[parent] {
			name := c.Path
			if parent != "(top level)" {
				name = strings.TrimPrefix(c.Path, parent)
			}
			line := fmt.Sprintf("%s %s  %s", marker(c.Severity, p), name, c.Kind)
			if c.Confidence < 1 {
				line += fmt.Sprintf(" (%.2g)", c.Confidence)
			}
			if c.Note != "" {
				line += " — " + c.Note
			}
			if c.Replacement != "" {
				line += p.green(" → " + c.Replacement)
			}
			fmt.Fprintf(w, "    %s\n", line)
		}
	}
}

func marker(s model.Severity, p palette) string {
	switch s {
	case model.Breaking:
		return p.red("✗")
	case model.Deprecated:
		return p.yellow("!")
	case model.Additive:
		return p.green("+")
	}
	return p.dim("·")
}
