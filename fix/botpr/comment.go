package botpr

import (
	"fmt"
	"strings"
)

// Comment is the sticky comment of a run: the verdict first, then what
// the pull request moves, each migration, the verification.
func Comment(r *Report) string {
	var b strings.Builder
	b.WriteString(Marker + "\n")
	b.WriteString("### uptide\n\n")
	switch r.Status {
	case Pushed:
		fmt.Fprintf(&b, "✓ **verified**: pushed %s on top of %s with the migrations' edits.\n", short(r.Commit), short(r.Head))
	case Unchanged:
		fmt.Fprintf(&b, "✓ **nothing to push**: %s\n", r.Reason)
	case Committed:
		fmt.Fprintf(&b, "✓ **verified**, committed %s; not pushed.\n", short(r.Commit))
	case Refused:
		fmt.Fprintf(&b, "■ **not pushed**: %s\n", r.Reason)
	case Failed:
		fmt.Fprintf(&b, "✗ **not pushed**: %s\n", r.Reason)
	default:
		fmt.Fprintf(&b, "■ **could not run**: %s\n", r.Reason)
	}
	if len(r.Moves) > 0 {
		fmt.Fprintf(&b, "\n**What %s moves** (at %s)\n\n| package | where | from | to |\n| --- | --- | --- | --- |\n", r.Lockfile, short(r.Head))
		for _, m := range r.Moves {
			fmt.Fprintf(&b, "| `%s` | %s | %s | %s |\n", m.Name, m.Importer, m.From, m.To)
		}
	}
	for _, m := range r.Migrations {
		fmt.Fprintf(&b, "\n**%s %s → %s**: %s", m.Package, m.From, m.To, m.Status)
		if m.Reason != "" {
			fmt.Fprintf(&b, " (%s)", m.Reason)
		}
		b.WriteString("\n\n")
		if m.Rules != nil && len(m.Rules.Sites) > 0 {
			fmt.Fprintf(&b, "- the %s pack's rules edited %d sites:\n", m.Rules.Pack, len(m.Rules.Sites))
			for _, s := range m.Rules.Sites {
				fmt.Fprintf(&b, "  - `%s:%d` %s\n", s.File, s.Line, s.Rule)
			}
		} else {
			b.WriteString("- no rule edit\n")
		}
		for _, s := range m.Sites {
			fmt.Fprintf(&b, "- left for you: `%s:%d` %s\n", s.File, s.Line, s.Message)
		}
		for _, d := range m.Decisions {
			// An indented decision continues the one before it (the
			// changelog entries under stripe's API versions).
			if item := strings.TrimLeft(d, " "); item != d {
				fmt.Fprintf(&b, "  - %s\n", firstLine(item))
				continue
			}
			fmt.Fprintf(&b, "- decision for you: %s\n", firstLine(d))
		}
	}
	if v := r.Verify; v != nil {
		b.WriteString("\n**Verification** of the head with the edits and its own lockfile\n\n")
		fmt.Fprintf(&b, "- types: %s", v.Types.Status)
		if v.Types.Compiler != "" {
			fmt.Fprintf(&b, " with %s, %d new errors against the base's %d", v.Types.Compiler, len(v.Types.New), v.Types.Baseline)
		}
		if v.Types.Reason != "" {
			fmt.Fprintf(&b, " (%s)", v.Types.Reason)
		}
		b.WriteString("\n")
		for _, d := range v.Types.New {
			fmt.Fprintf(&b, "  - `%s:%d` TS%d %s\n", d.File, d.Line, d.Code, firstLine(d.Message))
		}
		for _, t := range v.Tests.Results {
			fmt.Fprintf(&b, "- tests `%s`: %s\n", t.Run.Command, t.Status)
		}
		if len(v.Tests.Results) == 0 {
			b.WriteString("- tests: none ran\n")
		}
		for f, msgs := range v.Style.NewFailures {
			fmt.Fprintf(&b, "- new lint failure in `%s`: %s\n", f, firstLine(strings.Join(msgs, "; ")))
		}
	}
	return b.String()
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}
