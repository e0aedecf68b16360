// Package browser reads an HTML page as a person sees it, through a real
// headless Chromium: its visible text (CSS applied, whitespace collapsed)
// and how many resources it loaded. Test-only; never in the binary.
package browser

import (
	"context"
	"html"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// binary is the Chromium on PATH, "" when there is none.
func binary() string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// wrapper loads the page in a frame and writes what the frame shows into
// its own DOM, which --dump-dom prints: the page itself runs no script
// (its policy forbids it), so the reading is done from outside.
const wrapper = `<!DOCTYPE html><html><body><iframe id="f" src="page.html"></iframe><pre id="out"></pre><script>
document.getElementById('f').onload = function () {
  var w = this.contentWindow, d = this.contentDocument;
  document.getElementById('out').textContent = d ? (w.performance.getEntriesByType('resource').length + '\n' + d.body.innerText) : 'NO ACCESS';
};
</script></body></html>`

// Page is what Chromium shows of a page.
type Page struct {
	// Text is the body's innerText, whitespace runs folded to one space.
	Text string
	// Resources counts what the page fetched (styles, images, fonts,
	// scripts): a self-contained page fetches nothing.
	Resources int
}

// Read opens the page in headless Chromium. Without Chromium the test is
// skipped, saying how to install it.
func Read(t *testing.T, page []byte) Page {
	t.Helper()
	bin := binary()
	if bin == "" {
		t.Skip("no chromium on PATH: the page is read in a real browser (apt-get install chromium)")
	}
	dir := t.TempDir()
	for name, data := range map[string][]byte{"page.html": page, "wrapper.html": []byte(wrapper)} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
		"--user-data-dir="+filepath.Join(dir, "profile"), "--allow-file-access-from-files",
		"--virtual-time-budget=5000", "--dump-dom", "file://"+filepath.Join(dir, "wrapper.html"))
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: %v\n%s", bin, err, stderr.String())
	}
	dom := string(out)
	start := strings.Index(dom, `<pre id="out">`)
	end := strings.Index(dom, "</pre>")
	if start < 0 || end < start {
		t.Fatalf("chromium printed no page text:\n%s", dom)
	}
	text := html.UnescapeString(dom[start+len(`<pre id="out">`) : end])
	count, body, ok := strings.Cut(text, "\n")
	n, err := strconv.Atoi(count)
	if !ok || err != nil {
		t.Fatalf("chromium could not read the page: %q", text)
	}
	return Page{Text: Fold(body), Resources: n}
}

// Fold folds whitespace runs to one space, as a browser lays out text.
func Fold(s string) string { return strings.Join(strings.Fields(s), " ") }
