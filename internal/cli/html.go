package cli

import (
	"io"

	"github.com/spf13/pflag"

	"github.com/uptide/uptide/view/html"
)

// addHTMLFlag adds --html FILE to a command whose report has a page.
func addHTMLFlag(f *pflag.FlagSet, file *string) {
	f.StringVar(file, "html", "", "also write the report as one self-contained HTML page to `FILE` (no script, loads nothing)")
}

// htmlWritable refuses an --html file that cannot be written before the
// work that fills it runs.
func htmlWritable(file string) error {
	if file == "" {
		return nil
	}
	if err := html.Writable(file); err != nil {
		return usageError("--html: %v", err)
	}
	return nil
}

// writeHTML writes the page when --html named a file.
func writeHTML(file string, page func(io.Writer) error) error {
	if file == "" {
		return nil
	}
	return html.WriteFile(file, 0o666, page)
}
