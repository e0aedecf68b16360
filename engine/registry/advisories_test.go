package registry

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// The bulk advisory request is npm audit's: one gzip-compressed POST of
// {name: [versions]}; the answer keeps, per package, the advisories whose
// range covers a version asked, and leaves out the packages none covers.
func TestAdvisoriesBulk(t *testing.T) {
	rig := newFaultRig(t)
	got, err := rig.client.Advisories(context.Background(), map[string][]string{
		"lodash": {"4.17.20"}, "zod": {"3.22.4"},
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := got["zod"]; ok || len(got["lodash"]) != 2 {
		t.Fatalf("advisories %+v, want lodash's two and none for zod", got)
	}
	a := got["lodash"][0]
	if a.ID != 1106913 || a.Severity != "high" || a.VulnerableVersions != "<4.17.21" || a.CVSS == nil || a.CVSS.Score != 7.2 {
		t.Errorf("first advisory %+v", a)
	}
	if got, err := rig.client.Advisories(context.Background(), map[string][]string{"lodash": {"4.17.21"}}); err != nil || len(got) != 0 {
		t.Errorf("the fixed version: %+v %v, want none", got, err)
	}
}

// A registry without the endpoint is an error that says so and how to
// plan without it, never "no advisories".
func TestAdvisoriesWithoutTheEndpoint(t *testing.T) {
	var method, encoding string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		method, encoding = r.Method, r.Header.Get("Content-Encoding")
		http.NotFound(w, r)
	}))
	defer srv.Close()
	c := testClient(t, testConfig(t, "registry="+srv.URL+"/"), "")
	_, err := c.Advisories(context.Background(), map[string][]string{"lodash": {"4.17.20"}})
	var re *Error
	if !errors.As(err, &re) || !strings.Contains(err.Error(), "no security advisory endpoint") {
		t.Fatalf("err %v", err)
	}
	if method != http.MethodPost || encoding != "gzip" {
		t.Errorf("request %s with Content-Encoding %q, want a gzip POST", method, encoding)
	}
}
