// Package html writes a report as one self-contained HTML page to share:
// check's findings by rule with their sites and diffs, plan's steps, fix's
// run. The page needs nothing to be read — no script, no font, no image,
// no network (its Content-Security-Policy forbids every fetch) — so it
// can be mailed, attached to a pull request or opened offline years later.
// Every value it shows comes from the report or from the view package's
// words, so the page says what the CLI says. It is pure: a report in,
// bytes out; only WriteFile and StoreFixPage touch the disk.
package html

import (
	"bytes"
	"crypto/rand"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
	"html/template"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/uptide/uptide/view"
)

//go:embed templates/*.tmpl
var templateFiles embed.FS

// pages are parsed once; html/template escapes every value by its
// context: package names, compiler messages and diffs are the
// repository's and the registry's text, never markup.
var pages = template.Must(template.New("pages").Funcs(template.FuncMap{
	"tone": toneClass,
}).ParseFS(templateFiles, "templates/*.tmpl"))

// head is what every page starts with: its title and the lines under it.
type head struct {
	// Command is the uptide command the page reports ("check").
	Command string
	Title   string
	Sub     []string
}

// render executes one page template into w, whole or not at all: a
// template error never leaves half a page behind.
func render(w io.Writer, name string, data any) error {
	var b bytes.Buffer
	if err := pages.ExecuteTemplate(&b, name, data); err != nil {
		return fmt.Errorf("rendering the %s page: %w", name, err)
	}
	_, err := w.Write(b.Bytes())
	return err
}

// toneClass is the CSS class of a view tone.
func toneClass(t view.Tone) string {
	switch t {
	case view.Good:
		return "good"
	case view.Bad:
		return "bad"
	case view.Warn:
		return "warn"
	case view.Dim:
		return "dim"
	case view.Strong:
		return "strong"
	}
	return ""
}

// Writable says whether path can be written, before the work that fills
// it runs: a typo in a directory fails in a second, not after a check.
// It leaves nothing behind.
func Writable(path string) error {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return fmt.Errorf("the HTML report %s is a directory: name a file", path)
	}
	f, err := createTemp(path, 0o600)
	if err != nil {
		return err
	}
	f.Close()
	return os.Remove(f.Name())
}

// WriteFile renders a page and writes it to path with perm (less the
// umask) through a temporary file and a rename, so a reader never sees
// half a page. A page asked for to share is 0o666; a run's page keeps its
// record's 0o600.
func WriteFile(path string, perm os.FileMode, page func(io.Writer) error) error {
	var b bytes.Buffer
	if err := page(&b); err != nil {
		return err
	}
	tmp, err := createTemp(path, perm)
	if err != nil {
		return err
	}
	_, werr := tmp.Write(b.Bytes())
	err = errors.Join(werr, tmp.Close())
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("writing the HTML report %s: %v", path, unwrapPath(err))
	}
	return nil
}

// createTemp creates a new file beside path, with perm less the umask
// (os.CreateTemp would make every page private).
func createTemp(path string, perm os.FileMode) (*os.File, error) {
	var suffix [8]byte
	if _, err := rand.Read(suffix[:]); err != nil {
		return nil, err
	}
	name := filepath.Join(filepath.Dir(path), ".uptide-html-"+hex.EncodeToString(suffix[:]))
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return nil, fmt.Errorf("the HTML report %s cannot be written (%v): name a file in a directory you can write", path, unwrapPath(err))
	}
	return f, nil
}

// unwrapPath drops the temporary file's name from an error: the user
// named the report, not it.
func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}

// plural is view.Count for the page's own words.
func plural(n int, noun string) string { return view.Count(n, noun) }

// joinNonEmpty joins the parts that say something.
func joinNonEmpty(sep string, parts ...string) string {
	var out []string
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, sep)
}
