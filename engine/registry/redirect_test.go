package registry

import (
	"context"
	"encoding/base64"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// redirecting makes f answer every request with a 302 to the same path
// on target, as a registry fronted by a mirror or a CDN does.
func redirecting(f *fakeRegistry, target string) {
	f.before = func(w http.ResponseWriter, r *http.Request) bool {
		http.Redirect(w, r, target+r.URL.RequestURI(), http.StatusFound)
		return true
	}
}

// configWithEnv is testConfig with extra environment variables, for
// ${VAR} substitution in the .npmrc.
func configWithEnv(t *testing.T, npmrc string, env ...string) *Config {
	t.Helper()
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, ".npmrc"), []byte(npmrc), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := LoadConfig("", append([]string{"HOME=" + home, "PATH="}, env...))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// A registry on one port redirects the packument and the tarball to a
// server on another port of the same host: the registry's credentials,
// whatever their form in .npmrc, reach the registry and never the other
// port; when the other port has credentials of its own in .npmrc, it
// gets those.
func TestRedirectRecomputesCredentials(t *testing.T) {
	b64 := func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }
	tests := []struct {
		name  string
		npmrc string // {A} and {B} are the two servers' host:port
		env   []string
		wantA string // Authorization the registry sees
		wantB string // Authorization the other port sees
	}{
		{"_authToken", "registry=http://{A}/\n//{A}/:_authToken=tok-a\n", nil, "Bearer tok-a", ""},
		{"${NPM_TOKEN}", "registry=http://{A}/\n//{A}/:_authToken=${NPM_TOKEN}\n", []string{"NPM_TOKEN=tok-env"}, "Bearer tok-env", ""},
		{"_auth", "registry=http://{A}/\n//{A}/:_auth=" + b64("alice:pw-a") + "\n", nil, "Basic " + b64("alice:pw-a"), ""},
		{"username and _password", "registry=http://{A}/\n//{A}/:username=alice\n//{A}/:_password=" + b64("pw-a") + "\n", nil, "Basic " + b64("alice:pw-a"), ""},
		{"credentials in the URL", "registry=http://alice:pw-a@{A}/\n", nil, "Basic " + b64("alice:pw-a"), ""},
		{"unscoped _authToken", "registry=http://{A}/\n_authToken=tok-legacy\n", nil, "Bearer tok-legacy", ""},
		{"the target's own credentials", "registry=http://{A}/\n//{A}/:_authToken=tok-a\n//{B}/:_authToken=tok-b\n", nil, "Bearer tok-a", "Bearer tok-b"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := newFakeRegistry(t)
			a := newFakeRegistry(t)
			redirecting(a, b.srv.URL)
			b.tarballBase = a.srv.URL // the tarball is asked of a too, and redirected
			b.add("left-pad", "1.0.0", &fakeVersion{})
			hostA := strings.TrimPrefix(a.srv.URL, "http://")
			hostB := strings.TrimPrefix(b.srv.URL, "http://")
			npmrc := strings.NewReplacer("{A}", hostA, "{B}", hostB).Replace(tt.npmrc)
			c := testClient(t, configWithEnv(t, npmrc, tt.env...), "")
			pkg, err := c.Fetch(context.Background(), "left-pad", "1.0.0")
			if err != nil {
				t.Fatal(err)
			}
			defer pkg.Remove()
			for _, want := range []string{"/left-pad", "/left-pad/-/"} {
				if len(a.seen(want)) == 0 || len(b.seen(want)) == 0 {
					t.Fatalf("%s was not redirected from one port to the other: a %+v, b %+v", want, a.seen("/"), b.seen("/"))
				}
			}
			for _, r := range a.seen("/") {
				if r.auth != tt.wantA {
					t.Errorf("the registry got %q on %s, want %q", r.auth, r.path, tt.wantA)
				}
			}
			for _, r := range b.seen("/") {
				if r.auth != tt.wantB {
					t.Errorf("the port redirected to got %q on %s, want %q", r.auth, r.path, tt.wantB)
				}
			}
		})
	}
}

// An https registry redirecting to http never passes credentials on, not
// even those .npmrc has for the http URL: they would travel in the clear.
func TestRedirectToHTTPCarriesNoCredentials(t *testing.T) {
	b := newFakeRegistry(t)
	b.add("left-pad", "1.0.0", &fakeVersion{})
	a := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer tok-a" {
			t.Errorf("the https registry got %q", r.Header.Get("Authorization"))
		}
		http.Redirect(w, r, b.srv.URL+r.URL.RequestURI(), http.StatusFound)
	}))
	defer a.Close()
	hostA := strings.TrimPrefix(a.URL, "https://")
	hostB := strings.TrimPrefix(b.srv.URL, "http://")
	cfg := testConfig(t, "registry=https://"+hostA+"/\n//"+hostA+"/:_authToken=tok-a\n//"+hostB+"/:_authToken=tok-b\n")
	c := testClient(t, cfg, "", func(o *Options) { o.HTTP = a.Client() })
	if _, err := c.Packument(context.Background(), "left-pad", false); err != nil {
		t.Fatal(err)
	}
	seen := b.seen("/left-pad")
	if len(seen) == 0 {
		t.Fatal("the packument was not redirected")
	}
	for _, r := range seen {
		if r.auth != "" {
			t.Errorf("an https → http redirect carried %q", r.auth)
		}
	}
}
