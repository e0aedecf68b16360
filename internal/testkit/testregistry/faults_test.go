package testregistry

import (
	"crypto/sha512"
	"encoding/base64"
	"errors"
	"net"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/uptide/uptide/internal/testkit/regread"
)

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

func TestFail(t *testing.T) {
	paths := []string{"react", "react/19.1.0", "react/latest", "react/-/react-19.1.0.tgz"}
	for _, status := range []int{500, 401, 403, 404, 405} {
		reg, url := startFixtures(t)
		reg.Fail("react", status)
		for _, p := range paths {
			res := regread.Get(t, url+p, regread.Abbreviated)
			if res.Status != status {
				t.Errorf("Fail(%d): GET %s = %d", status, p, res.Status)
			}
			if doc := regread.Decode(t, res.Body); doc["error"] != http.StatusText(status) {
				t.Errorf("Fail(%d): body %v", status, doc)
			}
		}
		if res := regread.Get(t, url+"react-dom", regread.Abbreviated); res.Status != 200 {
			t.Errorf("Fail(react) also failed react-dom: %d", res.Status)
		}
		reg.Heal("react")
		if res := regread.Get(t, url+"react", regread.Abbreviated); res.Status != 200 {
			t.Errorf("after Heal: %d", res.Status)
		}
	}
}

func TestFailScopedAcrossEncodings(t *testing.T) {
	reg, url := startFixtures(t)
	reg.Fail("@aws-sdk/core", 500)
	for _, p := range []string{"@aws-sdk%2fcore", "@aws-sdk/core", "@aws-sdk/core/-/core-3.500.0.tgz"} {
		if res := regread.Get(t, url+p, nil); res.Status != 500 {
			t.Errorf("GET %s = %d, want 500", p, res.Status)
		}
	}
}

func TestFailTimesThenRecovers(t *testing.T) {
	reg, url := startFixtures(t)
	reg.FailTimes("zod", 503, 2)
	var got []int
	for range 4 {
		got = append(got, regread.Get(t, url+"zod", regread.Abbreviated).Status)
	}
	want := []int{503, 503, 200, 200}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("statuses = %v, want %v", got, want)
		}
	}
}

func TestHang(t *testing.T) {
	reg, url := startFixtures(t)
	reg.Hang("zod")
	client := &http.Client{Timeout: 100 * time.Millisecond}
	_, err := regread.Do(t, client, http.MethodGet, url+"zod", regread.Abbreviated)
	if !isTimeout(err) {
		t.Fatalf("hanging request: err = %v, want a timeout", err)
	}
	if res, err := regread.Do(t, client, http.MethodGet, url+"react", regread.Abbreviated); err != nil || res.Status != 200 {
		t.Fatalf("other package while zod hangs: %v %d", err, res.Status)
	}
	if n := reg.RequestsFor("zod"); n != 1 {
		t.Errorf("RequestsFor(zod) = %d, want 1", n)
	}
}

func TestHangTimesThenAnswers(t *testing.T) {
	reg, url := startFixtures(t)
	reg.HangTimes("zod", 1)
	client := &http.Client{Timeout: 100 * time.Millisecond}
	if _, err := regread.Do(t, client, http.MethodGet, url+"zod", regread.Abbreviated); !isTimeout(err) {
		t.Fatalf("first attempt: err = %v, want a timeout", err)
	}
	res, err := regread.Do(t, client, http.MethodGet, url+"zod", regread.Abbreviated)
	if err != nil || res.Status != 200 {
		t.Fatalf("retry: %v %d", err, res.Status)
	}
}

// TestCloseReleasesHangingRequests guards against a Close that waits forever
// on a handler parked by Hang or a long latency.
func TestCloseReleasesHangingRequests(t *testing.T) {
	for _, tc := range []struct {
		name  string
		setup func(*Registry)
	}{
		{"hang", func(r *Registry) { r.Hang("zod") }},
		{"latency", func(r *Registry) { r.SetLatency(time.Hour) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			reg, url := startFixtures(t)
			tc.setup(reg)
			done := make(chan struct{})
			go func() {
				defer close(done)
				res, err := http.Get(url + "zod")
				if err == nil {
					res.Body.Close()
				}
			}()
			waitFor(t, func() bool { return reg.Requests() == 1 })
			closed := make(chan struct{})
			go func() { reg.Close(); close(closed) }()
			for _, ch := range []chan struct{}{closed, done} {
				select {
				case <-ch:
				case <-time.After(10 * time.Second):
					t.Fatal("Close did not release the parked request")
				}
			}
		})
	}
}

// waitFor polls a condition that another goroutine makes true; the bound is
// a deadlock guard, not a timing assertion.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for range 1000 {
		if cond() {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatal("condition never became true")
}

func TestLatency(t *testing.T) {
	reg, url := startFixtures(t)
	reg.SetLatency(time.Hour)
	client := &http.Client{Timeout: 100 * time.Millisecond}
	if _, err := regread.Do(t, client, http.MethodGet, url+"react", nil); !isTimeout(err) {
		t.Fatalf("err = %v, want a timeout behind an hour of latency", err)
	}
	reg.SetLatency(time.Millisecond)
	if res, err := regread.Do(t, client, http.MethodGet, url+"react", nil); err != nil || res.Status != 200 {
		t.Fatalf("small latency: %v", err)
	}
}

func TestCorruptTarball(t *testing.T) {
	reg, url := startFixtures(t)
	reg.CorruptTarball("react", "19.1.0")
	doc := regread.Decode(t, regread.Get(t, url+"react", regread.Abbreviated).Body)
	for _, v := range []string{"19.1.0", "19.0.0"} {
		want := regread.At(doc, "versions", v, "dist", "integrity")
		body := regread.Get(t, url+"react/-/react-"+v+".tgz", nil).Body
		sum := sha512.Sum512(body)
		got := "sha512-" + base64.StdEncoding.EncodeToString(sum[:])
		if corrupt := v == "19.1.0"; (got != want) != corrupt {
			t.Errorf("%s: served %s, advertised %s (corrupt=%v)", v, got, want, corrupt)
		}
		// Still a well-formed tarball: only an integrity check can tell.
		if _, ok := regread.Untar(t, body)["package/package.json"]; !ok {
			t.Errorf("%s: tarball lacks package.json", v)
		}
	}
	if adv, _ := reg.Integrity("react", "19.1.0"); adv != regread.At(doc, "versions", "19.1.0", "dist", "integrity") {
		t.Error("CorruptTarball changed the advertised integrity")
	}
}

func TestRequireToken(t *testing.T) {
	reg, url := startFixtures(t)
	reg.RequireToken("s3cret")
	tests := []struct {
		name   string
		path   string
		auth   string
		status int
	}{
		{"no header", "react", "", 401},
		{"wrong token", "react", "Bearer nope", 401},
		{"basic scheme", "react", "Basic czNjcmV0", 401},
		{"bearer token", "react", "Bearer s3cret", 200},
		{"tarball needs it too", "react/-/react-19.1.0.tgz", "", 401},
		{"whoami", "-/whoami", "Bearer s3cret", 200},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := map[string]string{}
			if tt.auth != "" {
				h["Authorization"] = tt.auth
			}
			if res := regread.Get(t, url+tt.path, h); res.Status != tt.status {
				t.Errorf("status = %d, want %d", res.Status, tt.status)
			}
		})
	}
	log := reg.Log()
	if log[0].Authorized || !log[1].Authorized {
		t.Errorf("Authorized flags = %v, %v", log[0].Authorized, log[1].Authorized)
	}
}

func TestDisableVersionEndpoint(t *testing.T) {
	reg, url := startFixtures(t)
	reg.DisableVersionEndpoint(true)
	if res := regread.Get(t, url+"react/19.1.0", nil); res.Status != 404 {
		t.Errorf("version endpoint = %d, want 404", res.Status)
	}
	if res := regread.Get(t, url+"react", regread.Abbreviated); res.Status != 200 {
		t.Errorf("packument = %d", res.Status)
	}
}

func TestRequestCounts(t *testing.T) {
	reg, url := startFixtures(t)
	regread.Get(t, url+"@types%2freact", regread.Abbreviated)
	regread.Get(t, url+"@types/react", regread.Abbreviated)
	regread.Get(t, url+"@types/react/-/react-19.1.2.tgz", nil)
	regread.Get(t, url+"react", regread.Abbreviated)
	if n := reg.Requests(); n != 4 {
		t.Errorf("Requests = %d, want 4", n)
	}
	if n := reg.RequestsTo("/@types/react"); n != 2 {
		t.Errorf("RequestsTo(/@types/react) = %d, want 2", n)
	}
	if n := reg.RequestsFor("@types/react"); n != 3 {
		t.Errorf("RequestsFor(@types/react) = %d, want 3", n)
	}
	log := reg.Log()
	if log[0].RawPath != "/@types%2freact" || log[0].Path != "/@types/react" || log[0].Status != 200 {
		t.Errorf("log[0] = %+v", log[0])
	}
	if log[0].Accept != regread.Abbreviated["Accept"] {
		t.Errorf("log[0].Accept = %q", log[0].Accept)
	}
	reg.ResetRequests()
	if reg.Requests() != 0 || reg.RequestsFor("@types/react") != 0 {
		t.Error("ResetRequests kept counts")
	}
}

// TestConcurrentClients runs many clients at once (under -race in CI) and
// checks every one got consistent documents and tarballs.
func TestConcurrentClients(t *testing.T) {
	reg, url := startFixtures(t)
	names := reg.Packages()
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, name := range names {
				res, err := http.Get(url + name)
				if err != nil {
					errs <- err
					return
				}
				res.Body.Close()
				if res.StatusCode != 200 {
					errs <- errors.New(name + ": " + res.Status)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if got, want := reg.Requests(), 16*len(names); got != want {
		t.Errorf("Requests = %d, want %d", got, want)
	}
}
