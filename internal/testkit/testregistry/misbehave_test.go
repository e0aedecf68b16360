package testregistry

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/uptide/uptide/internal/testkit/regread"
)

// rawGet sends a GET on a fresh connection and returns the status line,
// the headers and a reader over whatever follows, untouched by net/http's
// client (which would trim a body to its Content-Length).
func rawGet(t *testing.T, base, path string) (string, http.Header, *bufio.Reader) {
	t.Helper()
	host := strings.TrimSuffix(strings.TrimPrefix(base, "http://"), "/")
	conn, err := net.Dial("tcp", host)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	fmt.Fprintf(conn, "GET /%s HTTP/1.1\r\nHost: %s\r\nAccept: application/vnd.npm.install-v1+json\r\n\r\n", path, host)
	br := bufio.NewReader(conn)
	status, err := br.ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	h := http.Header{}
	for {
		line, err := br.ReadString('\n')
		if err != nil {
			t.Fatal(err)
		}
		line = strings.TrimRight(line, "\r\n")
		if line == "" {
			break
		}
		k, v, _ := strings.Cut(line, ":")
		h.Add(k, strings.TrimSpace(v))
	}
	return strings.TrimSpace(status), h, br
}

func TestMisbehaveDrip(t *testing.T) {
	reg, url := startFixtures(t)
	reg.Misbehave("zod", Fault{Kind: Drip, Chunk: 3, Interval: 20 * time.Millisecond})
	status, h, body := rawGet(t, url, "zod")
	if !strings.Contains(status, "200") || h.Get("Content-Length") == "" {
		t.Fatalf("headers should arrive at once: %s %v", status, h)
	}
	// The body arrives in writes of at most Chunk bytes: a read never
	// gets more than that at once.
	buf := make([]byte, 1024)
	for range 3 {
		n, err := body.Read(buf)
		if err != nil {
			t.Fatal(err)
		}
		if n > 3 {
			t.Fatalf("read %d bytes at once, want drips of at most 3", n)
		}
	}
	reg.Heal("zod")
	if res := regread.Get(t, url+"zod", regread.Abbreviated); res.Status != 200 {
		t.Errorf("after Heal: %d", res.Status)
	}
}

func TestMisbehaveHangAfterHeaders(t *testing.T) {
	reg, url := startFixtures(t)
	reg.Misbehave("zod", Fault{Kind: HangAfterHeaders})
	client := &http.Client{Timeout: 200 * time.Millisecond}
	req, _ := http.NewRequest(http.MethodGet, url+"zod", nil)
	res, err := client.Do(req)
	if err != nil {
		t.Fatalf("headers should arrive: %v", err)
	}
	defer res.Body.Close()
	if res.StatusCode != 200 {
		t.Fatalf("status %d", res.StatusCode)
	}
	got, err := io.ReadAll(res.Body)
	if !isTimeout(err) {
		t.Fatalf("reading the body: err = %v, want a timeout", err)
	}
	if len(got) == 0 || len(got) > 16 {
		t.Errorf("got %d bytes before the hang, want the first few", len(got))
	}
}

func TestMisbehaveTruncate(t *testing.T) {
	reg, url := startFixtures(t)
	reg.Misbehave("zod", Fault{Kind: Truncate})
	res, err := http.Get(url + "zod")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	_, err = io.ReadAll(res.Body)
	if !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("err = %v, want an unexpected EOF", err)
	}
}

func TestMisbehaveHTMLError(t *testing.T) {
	for _, status := range []int{500, 503} {
		reg, url := startFixtures(t)
		reg.Misbehave("zod", Fault{Kind: HTMLError, Status: status})
		for _, p := range []string{"zod", "zod/-/zod-4.1.12.tgz"} {
			res := regread.Get(t, url+p, regread.Abbreviated)
			if res.Status != status || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") || !strings.Contains(string(res.Body), "<html>") {
				t.Errorf("%s: %d %s %q", p, res.Status, res.Header.Get("Content-Type"), res.Body)
			}
		}
	}
}

func TestMisbehaveWrongType(t *testing.T) {
	reg, url := startFixtures(t)
	reg.Misbehave("zod", Fault{Kind: WrongType})
	res := regread.Get(t, url+"zod", regread.Abbreviated)
	if res.Status != 200 || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") {
		t.Fatalf("%d %s", res.Status, res.Header.Get("Content-Type"))
	}
	if json.Valid(res.Body) {
		t.Error("the body is JSON; it should be a page")
	}
}

func TestMisbehaveRedirectLoop(t *testing.T) {
	reg, url := startFixtures(t)
	reg.Misbehave("zod", Fault{Kind: RedirectLoop})
	_, err := http.Get(url + "zod")
	if err == nil || !strings.Contains(err.Error(), "redirects") {
		t.Fatalf("err = %v, want the client's redirect limit", err)
	}
	if n := reg.RequestsFor("zod"); n < 10 {
		t.Errorf("%d requests: the loop should go on until the client stops", n)
	}
}

func TestMisbehaveHuge(t *testing.T) {
	reg, url := startFixtures(t)
	const size = 3 << 20
	reg.Misbehave("zod", Fault{Kind: Huge, Size: size})
	res := regread.Get(t, url+"zod", regread.Abbreviated)
	if res.Status != 200 || res.Header.Get("Content-Length") != "" {
		t.Fatalf("status %d, Content-Length %q: want a streamed 200", res.Status, res.Header.Get("Content-Length"))
	}
	if n := len(res.Body); n < size || n > size+8<<10 {
		t.Errorf("document of %d bytes, want about %d", n, size)
	}
	doc := regread.Decode(t, res.Body)
	versions, _ := doc["versions"].(map[string]any)
	if _, ok := versions["4.1.12"]; !ok || len(versions) < 1000 {
		t.Errorf("%d versions, want the real ones and many generated", len(versions))
	}
	if regread.At(doc, "dist-tags", "latest") != "4.1.12" {
		t.Errorf("dist-tags: %v", doc["dist-tags"])
	}
	// Only the document is huge: the tarball is the real one.
	if res := regread.Get(t, url+"zod/-/zod-4.1.12.tgz", nil); res.Status != 200 || len(res.Body) > 1<<20 {
		t.Errorf("tarball: %d, %d bytes", res.Status, len(res.Body))
	}
}

func TestMisbehaveTarballLonger(t *testing.T) {
	reg, url := startFixtures(t)
	real := regread.Get(t, url+"zod/-/zod-4.1.12.tgz", nil).Body
	reg.Misbehave("zod", Fault{Kind: TarballLonger})
	if res := regread.Get(t, url+"zod", regread.Abbreviated); res.Status != 200 || !json.Valid(res.Body) {
		t.Fatalf("the document should be served normally: %d", res.Status)
	}
	status, h, body := rawGet(t, url, "zod/-/zod-4.1.12.tgz")
	declared, _ := strconv.Atoi(h.Get("Content-Length"))
	sent, _ := io.Copy(io.Discard, body)
	if !strings.Contains(status, "200") || declared != len(real)/2 || sent <= int64(declared) {
		t.Fatalf("%s: declared %d, sent %d (real tarball %d)", status, declared, sent, len(real))
	}
}

func TestMisbehaveTarballEndless(t *testing.T) {
	reg, url := startFixtures(t)
	reg.Misbehave("zod", Fault{Kind: TarballEndless})
	res, err := http.Get(url + "zod/-/zod-4.1.12.tgz")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.ContentLength != -1 {
		t.Errorf("Content-Length %d, want none", res.ContentLength)
	}
	const enough = 8 << 20
	n, err := io.Copy(io.Discard, io.LimitReader(res.Body, enough))
	if err != nil || n != enough {
		t.Fatalf("read %d bytes (%v), want the stream to go on", n, err)
	}
}

func TestMisbehaveTarballOnly(t *testing.T) {
	reg, url := startFixtures(t)
	reg.Misbehave("zod", Fault{Kind: HTMLError, TarballOnly: true})
	if res := regread.Get(t, url+"zod", regread.Abbreviated); res.Status != 200 || !json.Valid(res.Body) {
		t.Errorf("document: %d", res.Status)
	}
	if res := regread.Get(t, url+"zod/-/zod-4.1.12.tgz", nil); res.Status != 503 {
		t.Errorf("tarball: %d, want the fault", res.Status)
	}
}
