package registry

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestPackumentAbbreviatedAndFull(t *testing.T) {
	reg := newFakeRegistry(t)
	reg.add("left-pad", "1.0.0", &fakeVersion{deps: map[string]string{"dep": "^1.0.0"}})
	reg.add("left-pad", "1.1.0", &fakeVersion{})
	c := testClient(t, testConfig(t, "registry="+reg.URL()), "")
	ctx := context.Background()

	p, err := c.Packument(ctx, "left-pad", false)
	if err != nil {
		t.Fatal(err)
	}
	if p.Name != "left-pad" || p.DistTags["latest"] != "1.1.0" || len(p.Versions) != 2 || len(p.Time) != 0 {
		t.Fatalf("abbreviated packument: %+v", p)
	}
	if got := p.Versions["1.0.0"].Dependencies["dep"]; got != "^1.0.0" {
		t.Errorf("dependencies not decoded: %q", got)
	}
	if p.Versions["1.0.0"].Dist.Integrity == "" || p.Versions["1.0.0"].Engines["node"] != ">=18" {
		t.Errorf("dist/engines not decoded: %+v", p.Versions["1.0.0"])
	}
	full, err := c.Packument(ctx, "left-pad", true)
	if err != nil {
		t.Fatal(err)
	}
	if len(full.Time) != 2 || full.Time["1.0.0"] == "" {
		t.Errorf("full packument should carry publish times of versions only: %v", full.Time)
	}
	seen := reg.seen("/left-pad")
	if len(seen) != 2 {
		t.Fatalf("want 2 requests, got %d", len(seen))
	}
	if seen[0].accept != abbreviatedAccept || seen[1].accept != "application/json" {
		t.Errorf("Accept headers: %q, %q", seen[0].accept, seen[1].accept)
	}
	// A second ask in the same run is answered from memory.
	if _, err := c.Packument(ctx, "left-pad", false); err != nil {
		t.Fatal(err)
	}
	if n := len(reg.seen("/left-pad")); n != 2 {
		t.Errorf("repeated Packument went to the network: %d requests", n)
	}
}

func TestScopedRouting(t *testing.T) {
	public := newFakeRegistry(t)
	corp := newFakeRegistry(t)
	public.add("left-pad", "1.0.0", &fakeVersion{})
	corp.add("@corp/widgets", "2.0.0", &fakeVersion{})
	c := testClient(t, testConfig(t, "registry="+public.URL()+"\n@corp:registry="+corp.URL()), "")
	ctx := context.Background()
	for _, name := range []string{"left-pad", "@corp/widgets"} {
		if _, err := c.Packument(ctx, name, false); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	if got := corp.seen("/"); len(got) != 1 || got[0].path != "/@corp%2fwidgets" {
		t.Errorf("scoped package should go to its registry as @corp%%2fwidgets: %+v", got)
	}
	if got := public.seen("/"); len(got) != 1 || got[0].path != "/left-pad" {
		t.Errorf("unscoped package should go to the default registry: %+v", got)
	}
}

func TestAuthOnlyToTheRightHost(t *testing.T) {
	cdn := newFakeRegistry(t) // serves tarballs for the registry below
	reg := newFakeRegistry(t)
	reg.tarballBase = cdn.srv.URL
	reg.add("left-pad", "1.0.0", &fakeVersion{})
	cdn.add("left-pad", "1.0.0", &fakeVersion{tgz: reg.packages["left-pad"].versions["1.0.0"].tgz})
	reg.add("same-host", "1.0.0", &fakeVersion{})
	reg.packages["same-host"].versions["1.0.0"].tarball = reg.srv.URL + "/same-host/-/same-host-1.0.0.tgz"
	other := newFakeRegistry(t)
	other.add("@other/x", "1.0.0", &fakeVersion{})

	npmrc := "registry=" + reg.URL() + "\n@other:registry=" + other.URL() + "\n" +
		"//" + strings.TrimPrefix(reg.srv.URL, "http://") + "/:_authToken=tok-reg\n"
	c := testClient(t, testConfig(t, npmrc), "")
	ctx := context.Background()
	for _, p := range []struct{ name, version string }{{"left-pad", "1.0.0"}, {"same-host", "1.0.0"}, {"@other/x", "1.0.0"}} {
		pkg, err := c.Fetch(ctx, p.name, p.version)
		if err != nil {
			t.Fatalf("%s: %v", p.name, err)
		}
		defer pkg.Remove()
	}
	for _, r := range reg.seen("/") {
		if r.auth != "Bearer tok-reg" {
			t.Errorf("registry request %s lacks its token: %q", r.path, r.auth)
		}
	}
	if len(reg.seen("/same-host/-/")) != 1 {
		t.Fatal("same-host tarball not fetched from the registry host")
	}
	cdnSeen := cdn.seen("/")
	if len(cdnSeen) != 1 {
		t.Fatalf("want 1 tarball request on the other host, got %d", len(cdnSeen))
	}
	if cdnSeen[0].auth != "" {
		t.Errorf("the registry's token was sent to another host: %q", cdnSeen[0].auth)
	}
	for _, r := range other.seen("/") {
		if r.auth != "" {
			t.Errorf("a scoped registry without credentials got %q", r.auth)
		}
	}
}

func TestETagRevalidation(t *testing.T) {
	reg := newFakeRegistry(t)
	reg.add("left-pad", "1.0.0", &fakeVersion{})
	cfg := testConfig(t, "registry="+reg.URL()+"\n//"+strings.TrimPrefix(reg.srv.URL, "http://")+"/:_authToken=tok-never-cached")
	cacheDir := t.TempDir()
	ctx := context.Background()

	first, err := testClient(t, cfg, cacheDir).Packument(ctx, "left-pad", false)
	if err != nil {
		t.Fatal(err)
	}
	// A new client is a new run: it revalidates instead of trusting memory.
	second, err := testClient(t, cfg, cacheDir).Packument(ctx, "left-pad", false)
	if err != nil {
		t.Fatal(err)
	}
	seen := reg.seen("/left-pad")
	if len(seen) != 2 {
		t.Fatalf("want 2 requests, got %d", len(seen))
	}
	if seen[0].ifNoneMatch != "" || seen[1].ifNoneMatch == "" || seen[1].status != http.StatusNotModified {
		t.Fatalf("second request should revalidate and get 304: %+v", seen)
	}
	if first.DistTags["latest"] != second.DistTags["latest"] || len(second.Versions) != 1 {
		t.Errorf("304 should return the cached document: %+v", second)
	}
	// The full document is a different cache entry.
	if _, err := testClient(t, cfg, cacheDir).Packument(ctx, "left-pad", true); err != nil {
		t.Fatal(err)
	}
	if last := reg.seen("/left-pad")[2]; last.ifNoneMatch != "" {
		t.Errorf("full document revalidated with the abbreviated ETag")
	}
	assertNoSecretInDir(t, cacheDir, "tok-never-cached")
}

func assertNoSecretInDir(t *testing.T, dir, secret string) {
	t.Helper()
	_ = filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, _ := os.ReadFile(path)
		if strings.Contains(string(b), secret) || strings.Contains(path, secret) {
			t.Errorf("%s contains a credential", path)
		}
		return nil
	})
}

func TestRetry(t *testing.T) {
	tests := []struct {
		name       string
		statuses   []int // injected answers, in order; 0 lets the registry answer
		wantErr    int   // 0 for success
		wantTries  int
		wantReason string
	}{
		{"500 then success", []int{500, 0}, 0, 2, ""},
		{"503 then success", []int{503, 0}, 0, 2, ""},
		{"no second retry", []int{500, 502, 0}, 502, 2, "server error"},
		{"404 is not retried", []int{404, 0}, 404, 1, "not found"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg := newFakeRegistry(t)
			reg.add("left-pad", "1.0.0", &fakeVersion{})
			var n atomic.Int32
			reg.before = func(w http.ResponseWriter, r *http.Request) bool {
				i := int(n.Add(1)) - 1
				if i < len(tt.statuses) && tt.statuses[i] != 0 {
					w.WriteHeader(tt.statuses[i])
					return true
				}
				return false
			}
			_, err := testClient(t, testConfig(t, "registry="+reg.URL()), "").Packument(context.Background(), "left-pad", false)
			if got := int(n.Load()); got != tt.wantTries {
				t.Errorf("requests = %d, want %d", got, tt.wantTries)
			}
			if tt.wantErr == 0 {
				if err != nil {
					t.Fatalf("want success, got %v", err)
				}
				return
			}
			var re *Error
			if !errors.As(err, &re) || re.Status != tt.wantErr || !strings.Contains(re.Reason, tt.wantReason) {
				t.Fatalf("want *Error status %d (%s), got %v", tt.wantErr, tt.wantReason, err)
			}
			if re.Package != "left-pad" || re.Host != strings.TrimPrefix(reg.srv.URL, "http://") {
				t.Errorf("error should carry package and host: %+v", re)
			}
		})
	}
}

func TestRefusalBlocksHost(t *testing.T) {
	for _, status := range []int{401, 403, 405} {
		t.Run(http.StatusText(status), func(t *testing.T) {
			reg := newFakeRegistry(t)
			reg.add("a", "1.0.0", &fakeVersion{})
			reg.add("b", "1.0.0", &fakeVersion{})
			reg.before = func(w http.ResponseWriter, r *http.Request) bool {
				w.WriteHeader(status)
				return true
			}
			c := testClient(t, testConfig(t, "registry="+reg.URL()), "")
			_, errA := c.Packument(context.Background(), "a", false)
			_, errB := c.Packument(context.Background(), "b", false)
			var a, b *Error
			if !errors.As(errA, &a) || !errors.As(errB, &b) {
				t.Fatalf("want *Error twice, got %v / %v", errA, errB)
			}
			if a.Status != status || b.Status != status || a.Reason != b.Reason || b.Package != "b" || a.Host != b.Host {
				t.Errorf("blocked host should fail later packages with the same reason: %+v / %+v", a, b)
			}
			if status == 401 && !strings.Contains(a.Reason, "set an auth token") {
				t.Errorf("401 reason should say what to do: %q", a.Reason)
			}
			if len(reg.seen("/b")) != 0 {
				t.Error("the blocked host was asked for the second package")
			}
			if len(reg.seen("/a")) != 1 {
				t.Error("a refusal must not be retried")
			}
		})
	}
}

func TestRejectedTokenReason(t *testing.T) {
	reg := newFakeRegistry(t)
	reg.before = func(w http.ResponseWriter, r *http.Request) bool {
		w.WriteHeader(http.StatusUnauthorized)
		return true
	}
	host := strings.TrimPrefix(reg.srv.URL, "http://")
	c := testClient(t, testConfig(t, "registry="+reg.URL()+"\n//"+host+"/:_authToken=tok-expired"), "")
	_, err := c.Packument(context.Background(), "a", false)
	if err == nil || !strings.Contains(err.Error(), "rejected the credentials") || strings.Contains(err.Error(), "tok-expired") {
		t.Fatalf("want a rejected-credentials reason without the token, got %v", err)
	}
}

func TestAttemptTimeout(t *testing.T) {
	reg := newFakeRegistry(t)
	reg.add("slow", "1.0.0", &fakeVersion{})
	var n atomic.Int32
	reg.before = func(w http.ResponseWriter, r *http.Request) bool {
		n.Add(1)
		<-r.Context().Done() // never answers; the client gives up
		return true
	}
	c := testClient(t, testConfig(t, "registry="+reg.URL()), "", func(o *Options) { o.AttemptTimeout = 20 * time.Millisecond })
	_, err := c.Packument(context.Background(), "slow", false)
	var re *Error
	if !errors.As(err, &re) || !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(re.Reason, "no answer within") {
		t.Fatalf("want a timeout *Error, got %v", err)
	}
	if got := n.Load(); got != 2 {
		t.Errorf("a timeout is retried exactly once: %d attempts", got)
	}
}

func TestStalledBodyTimesOut(t *testing.T) {
	reg := newFakeRegistry(t)
	reg.before = func(w http.ResponseWriter, r *http.Request) bool {
		w.WriteHeader(200)
		_, _ = w.Write([]byte(`{"name":"stall","versions":{`))
		w.(http.Flusher).Flush()
		<-r.Context().Done()
		return true
	}
	c := testClient(t, testConfig(t, "registry="+reg.URL()), "", func(o *Options) { o.AttemptTimeout = 20 * time.Millisecond })
	_, err := c.Packument(context.Background(), "stall", false)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("a body that stops arriving should time out, got %v", err)
	}
}

func TestConcurrencyLimit(t *testing.T) {
	const limit, packages = 4, 40
	reg := newFakeRegistry(t)
	var inFlight, max atomic.Int32
	full := make(chan struct{})
	var once sync.Once
	reg.before = func(w http.ResponseWriter, r *http.Request) bool {
		cur := inFlight.Add(1)
		defer inFlight.Add(-1)
		for {
			m := max.Load()
			if cur <= m || max.CompareAndSwap(m, cur) {
				break
			}
		}
		if cur >= limit {
			once.Do(func() { close(full) })
		}
		// Hold the first requests until the limit is reached, so a
		// client without a limit would overshoot here.
		select {
		case <-full:
		case <-r.Context().Done():
		}
		return false
	}
	var responses atomic.Int32
	c := testClient(t, testConfig(t, "registry="+reg.URL()), "", func(o *Options) {
		o.Concurrency = limit
		o.OnResponse = func() { responses.Add(1) }
	})
	names := make([]string, packages)
	for i := range names {
		names[i] = "pkg-" + string(rune('a'+i%26)) + string(rune('a'+i/26))
		reg.add(names[i], "1.0.0", &fakeVersion{tgz: []byte("x")})
	}
	var wg sync.WaitGroup
	errs := make(chan error, packages)
	for _, name := range names {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := c.Packument(context.Background(), name, false); err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if got := max.Load(); got != limit {
		t.Errorf("max requests in flight = %d, want exactly %d", got, limit)
	}
	if got := responses.Load(); got != packages {
		t.Errorf("OnResponse called %d times, want %d", got, packages)
	}
}

func TestCancellation(t *testing.T) {
	reg := newFakeRegistry(t)
	reg.add("left-pad", "1.0.0", &fakeVersion{})
	arrived := make(chan struct{}, 4)
	reg.before = func(w http.ResponseWriter, r *http.Request) bool {
		arrived <- struct{}{}
		<-r.Context().Done()
		return true
	}
	c := testClient(t, testConfig(t, "registry="+reg.URL()), "")
	for _, op := range []string{"packument", "fetch"} {
		t.Run(op, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			go func() {
				<-arrived
				cancel()
			}()
			var err error
			if op == "packument" {
				_, err = c.Packument(ctx, "left-pad", false)
			} else {
				_, err = c.Fetch(ctx, "left-pad", "1.0.0")
			}
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("want context.Canceled, got %v", err)
			}
		})
	}
	// A canceled context fails before any request is made.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := c.Packument(ctx, "other", false); !errors.Is(err, context.Canceled) {
		t.Fatalf("want context.Canceled, got %v", err)
	}
	// Counted by its own path: the subtests' requests are recorded when
	// their handlers notice the cancel, which may come later still.
	if len(reg.seen("/other")) != 0 {
		t.Error("a request was made with a canceled context")
	}
}

func TestErrorsCarryNoCredentials(t *testing.T) {
	reg := newFakeRegistry(t)
	reg.before = func(w http.ResponseWriter, r *http.Request) bool {
		w.WriteHeader(http.StatusInternalServerError)
		return true
	}
	host := strings.TrimPrefix(reg.srv.URL, "http://")
	closed := newFakeRegistry(t)
	closedURL := closed.URL()
	closed.srv.Close()
	npmrc := "registry=http://bob:hunter2@" + host + "/\n@gone:registry=" + closedURL + "\n//" +
		strings.TrimPrefix(closedURL, "http://") + ":_authToken=tok-gone\n"
	c := testClient(t, testConfig(t, npmrc), "")
	for _, name := range []string{"left-pad", "@gone/x"} {
		_, err := c.Packument(context.Background(), name, false)
		if err == nil {
			t.Fatalf("%s: want an error", name)
		}
		for _, secret := range []string{"hunter2", "bob:", "tok-gone"} {
			if strings.Contains(err.Error(), secret) {
				t.Errorf("%s: error leaks %q: %v", name, secret, err)
			}
		}
	}
	if got := reg.seen("/"); len(got) == 0 || !strings.HasPrefix(got[0].auth, "Basic ") {
		t.Errorf("credentials from the registry URL should still be sent: %+v", got)
	}
}

func TestInvalidNames(t *testing.T) {
	reg := newFakeRegistry(t)
	c := testClient(t, testConfig(t, "registry="+reg.URL()), "")
	for _, name := range []string{"", "../etc", "@scope/..", "a/b", "@/x", "has space", ".hidden", "@s/.x", strings.Repeat("a", 215)} {
		if _, err := c.Packument(context.Background(), name, false); err == nil {
			t.Errorf("%q accepted", name)
		}
		if _, err := c.Fetch(context.Background(), name, "1.0.0"); err == nil {
			t.Errorf("Fetch %q accepted", name)
		}
	}
	if n := len(reg.seen("/")); n != 0 {
		t.Errorf("invalid names reached the registry: %d requests", n)
	}
}

func TestRefusingTarballHostIsBlockedAlone(t *testing.T) {
	cdn := newFakeRegistry(t)
	cdn.before = func(w http.ResponseWriter, r *http.Request) bool {
		w.WriteHeader(http.StatusForbidden)
		return true
	}
	reg := newFakeRegistry(t)
	reg.add("on-cdn", "1.0.0", &fakeVersion{})
	reg.packages["on-cdn"].versions["1.0.0"].tarball = cdn.srv.URL + "/on-cdn/-/on-cdn-1.0.0.tgz"
	reg.add("on-cdn-too", "1.0.0", &fakeVersion{})
	reg.packages["on-cdn-too"].versions["1.0.0"].tarball = cdn.srv.URL + "/on-cdn-too/-/on-cdn-too-1.0.0.tgz"
	reg.add("local", "1.0.0", &fakeVersion{})
	c := testClient(t, testConfig(t, "registry="+reg.URL()), "")
	ctx := context.Background()

	_, err := c.Fetch(ctx, "on-cdn", "1.0.0")
	var re *Error
	cdnHost := strings.TrimPrefix(cdn.srv.URL, "http://")
	if !errors.As(err, &re) || re.Status != 403 || re.Host != cdnHost || !strings.Contains(re.Reason, "//"+cdnHost+"/:_authToken") {
		t.Fatalf("want a 403 from the tarball host naming its .npmrc key, got %v", err)
	}
	if _, err := c.Fetch(ctx, "on-cdn-too", "1.0.0"); !errors.As(err, &re) || re.Status != 403 || re.Package != "on-cdn-too@1.0.0" {
		t.Fatalf("the tarball host should stay blocked: %v", err)
	}
	if n := len(cdn.seen("/")); n != 1 {
		t.Errorf("blocked tarball host asked %d times, want 1", n)
	}
	pkg, err := c.Fetch(ctx, "local", "1.0.0")
	if err != nil {
		t.Fatalf("the registry host is not blocked by its CDN's refusal: %v", err)
	}
	pkg.Remove()
}

// A document the registry declared fresh (Cache-Control max-age) is used
// from the cache without a request; one without freshness is revalidated.
func TestPackumentFreshnessSkipsRevalidation(t *testing.T) {
	for _, tc := range []struct {
		cacheControl string
		etag         bool
		wantSecond   int
	}{
		{"public, max-age=300", true, 0},
		{"no-cache", true, 1},
		{"", true, 1},  // revalidated by its ETag
		{"", false, 0}, // nothing to revalidate with: kept a while
		{"no-store", false, 1},
	} {
		t.Run(fmt.Sprintf("%q etag=%v", tc.cacheControl, tc.etag), func(t *testing.T) {
			var requests atomic.Int32
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				requests.Add(1)
				if tc.etag {
					w.Header().Set("ETag", `"v1"`)
				}
				if tc.cacheControl != "" {
					w.Header().Set("Cache-Control", tc.cacheControl)
				}
				if tc.etag && r.Header.Get("If-None-Match") == `"v1"` {
					w.WriteHeader(http.StatusNotModified)
					return
				}
				w.Write([]byte(`{"name":"left-pad","dist-tags":{"latest":"1.3.0"},"versions":{"1.3.0":{"name":"left-pad","version":"1.3.0","dist":{"tarball":"x"}}}}`))
			}))
			defer srv.Close()
			cacheDir := t.TempDir()
			cfg, err := LoadConfig(t.TempDir(), []string{"npm_config_registry=" + srv.URL, "HOME=" + t.TempDir()})
			if err != nil {
				t.Fatal(err)
			}
			for i := 0; i < 2; i++ {
				c := New(Options{Config: cfg, CacheDir: cacheDir})
				p, err := c.Packument(context.Background(), "left-pad", false)
				if err != nil || p.DistTags["latest"] != "1.3.0" {
					t.Fatalf("run %d: %v %+v", i, err, p)
				}
			}
			if got := int(requests.Load()) - 1; got != tc.wantSecond {
				t.Errorf("second run made %d requests, want %d", got, tc.wantSecond)
			}
		})
	}
}
