package typescript

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// A declaration file larger than a compiler is given to read (a bomb in
// node_modules, where no extraction limit applied) is refused before the
// compiler parses it, with the file and the limit named.
func TestDriverRefusesAnOversizedDeclaration(t *testing.T) {
	line := "export declare const filler: string;\n"
	dir := writePackage(t, map[string]string{
		"package.json": `{"name":"bombkit","version":"2.0.0","types":"index.d.ts"}`,
		"index.d.ts":   "export declare function boom(s: string): string;\n" + strings.Repeat(line, (33<<20)/len(line)),
	})
	a := New(pinnedCompiler(t), Options{NoSurfaceCache: true})
	t.Cleanup(func() { a.Close() })
	_, err := a.ExtractSurface(context.Background(), dir, "bombkit", "2.0.0")
	var de *DriverError
	if !errors.As(err, &de) || de.Code != "TOO_LARGE" {
		t.Fatalf("want a TOO_LARGE DriverError, got %v", err)
	}
	if msg := err.Error(); !strings.Contains(msg, "bombkit@2.0.0") || !strings.Contains(msg, "index.d.ts is 33 MB of TypeScript, more than the 32 MB") || strings.Contains(msg, "\n") {
		t.Errorf("%q should name the package, the file and the limit, in one line", msg)
	}
}
