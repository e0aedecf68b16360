package registryserver

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/Masterminds/semver/v3"

	"github.com/uptide/uptide/internal/lists"
)

// Registry serves a set of packages over the npm registry protocol. It is an
// http.Handler, so it can also be mounted on an httptest.Server; Start runs
// its own listener on the loopback interface.
type Registry struct {
	mu     sync.Mutex
	pkgs   map[string]*pkg
	maxAge time.Duration // Cache-Control max-age of packuments; 0 sends none

	baseURL  string
	server   *http.Server
	serveErr chan error

	closeOnce sync.Once
}

type pkg struct {
	name     string
	versions map[string]*version
	tags     map[string]string // from dist-tags.json or SetDistTag
	times    map[string]string // from time.json
	// advisories are the security advisories the bulk endpoint answers
	// for the package (from advisories.json), in the registry's shape.
	advisories []json.RawMessage
	docs       map[docKey]*document
}

type docKey struct {
	abbreviated bool
	base        string
}

type document struct {
	body []byte
	etag string
}

type version struct {
	name     string
	version  string
	sv       *semver.Version
	manifest map[string]any
	files    map[string][]byte
	// exec are the files packed executable (a native compiler's binary).
	exec map[string]bool

	packOnce sync.Once
	packed   *tarball
	packErr  error
}

// New loads every package in fsys, laid out as <name>/<version>/package.json
// plus the files to pack (scoped packages as @scope/name/<version>/...), with
// optional <name>/dist-tags.json, <name>/time.json and <name>/advisories.json. Regular files at the
// root (a README, a Go file that embeds the tree) are ignored. A nil fsys gives
// an empty registry for Add.
func New(fsys fs.FS) (*Registry, error) {
	r := &Registry{pkgs: map[string]*pkg{}}
	if fsys == nil {
		return r, nil
	}
	if err := r.load(fsys); err != nil {
		return nil, err
	}
	return r, nil
}

// Start listens on 127.0.0.1 at a free port and serves until Close. It
// returns the base URL with a trailing slash.
func (r *Registry) Start() (string, error) { return r.StartAt("127.0.0.1:0") }

// StartAt is Start on a chosen address, for the command that real package
// managers are pointed at.
func (r *Registry) StartAt(addr string) (string, error) { return r.StartHandler(addr, r) }

// StartHandler is StartAt serving h, a handler in front of the registry
// (the test kit's fault injector), with the documents' tarball URLs pointing
// at h's address.
func (r *Registry) StartHandler(addr string, h http.Handler) (string, error) {
	r.mu.Lock()
	if r.server != nil {
		r.mu.Unlock()
		return "", errors.New("registryserver: already started")
	}
	r.mu.Unlock()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return "", fmt.Errorf("registryserver: listen on %s: %w", addr, err)
	}
	url := "http://" + ln.Addr().String() + "/"
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	r.mu.Lock()
	r.baseURL = url
	r.server = srv
	r.serveErr = make(chan error, 1)
	r.mu.Unlock()
	go func() { r.serveErr <- srv.Serve(ln) }()
	return url, nil
}

// URL is the base URL with a trailing slash, or "" before Start.
func (r *Registry) URL() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.baseURL
}

// Close stops the listener. It is safe to call more than once.
func (r *Registry) Close() {
	r.closeOnce.Do(func() {
		r.mu.Lock()
		srv := r.server
		r.mu.Unlock()
		if srv != nil {
			_ = srv.Close()
			<-r.serveErr
		}
	})
}

// Add publishes one version in memory. manifest must carry "name" and a
// semver "version"; it becomes the packed package.json (any "package.json"
// in files is replaced by it). Adding a version to a known package changes
// that package's documents and ETags, as a publish does.
func (r *Registry) Add(manifest map[string]any, files map[string]string) error {
	if manifest == nil {
		return errors.New("registryserver: add: nil manifest")
	}
	raw, err := json.MarshalIndent(manifest, "", "  ")
	if err != nil {
		return fmt.Errorf("registryserver: add: manifest is not JSON: %w", err)
	}
	m, err := decodeManifest(raw)
	if err != nil {
		return fmt.Errorf("registryserver: add: manifest%w", err)
	}
	name, _ := m["name"].(string)
	ver, _ := m["version"].(string)
	if err := checkName(name); err != nil {
		return fmt.Errorf("registryserver: add: %w", err)
	}
	sv, err := semver.StrictNewVersion(ver)
	if err != nil {
		return fmt.Errorf("registryserver: add %s: version %q is not semver", name, ver)
	}
	fb := make(map[string][]byte, len(files)+1)
	for p, c := range files {
		if err := checkFilePath(p); err != nil {
			return fmt.Errorf("registryserver: add %s@%s: %w", name, ver, err)
		}
		fb[p] = []byte(c)
	}
	fb["package.json"] = append(raw, '\n')
	return r.publish(&version{name: name, version: sv.String(), sv: sv, manifest: m, files: fb})
}

// publish adds one version of a package.
func (r *Registry) publish(v *version) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	p := r.pkgs[v.name]
	if p == nil {
		p = &pkg{name: v.name, versions: map[string]*version{}}
		r.pkgs[v.name] = p
	}
	if _, dup := p.versions[v.version]; dup {
		return fmt.Errorf("registryserver: add: %s@%s is already published", v.name, v.version)
	}
	p.versions[v.version] = v
	p.docs = nil
	return nil
}

// AddDir publishes the package extracted in dir (its package.json names it)
// with every regular file below dir, packed executable where the file is:
// tests serve real packages fetched once into a cache this way (a
// TypeScript compiler, whose native build is an executable).
func (r *Registry) AddDir(dir string) error {
	raw, err := os.ReadFile(filepath.Join(dir, "package.json"))
	if err != nil {
		return fmt.Errorf("registryserver: add %s: %w", dir, err)
	}
	m, err := decodeManifest(raw)
	if err != nil {
		return fmt.Errorf("registryserver: add %s: package.json%w", dir, err)
	}
	name, _ := m["name"].(string)
	ver, _ := m["version"].(string)
	if err := checkName(name); err != nil {
		return fmt.Errorf("registryserver: add %s: %w", dir, err)
	}
	sv, err := semver.StrictNewVersion(ver)
	if err != nil {
		return fmt.Errorf("registryserver: add %s: version %q is not semver", dir, ver)
	}
	files, exec := map[string][]byte{}, map[string]bool{}
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !d.Type().IsRegular() {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if strings.HasPrefix(rel, ".") {
			return nil // a cache's own marker files
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		files[rel] = data
		if info, err := d.Info(); err == nil && info.Mode()&0o111 != 0 {
			exec[rel] = true
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("registryserver: add %s: %w", dir, err)
	}
	return r.publish(&version{name: name, version: sv.String(), sv: sv, manifest: m, files: files, exec: exec})
}

// SetDistTag points a dist-tag of a known package at one of its versions.
func (r *Registry) SetDistTag(name, tag, ver string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	p := r.pkgs[name]
	if p == nil {
		return fmt.Errorf("registryserver: no package %s", name)
	}
	if p.versions[ver] == nil {
		return fmt.Errorf("registryserver: no version %s@%s", name, ver)
	}
	if p.tags == nil {
		p.tags = map[string]string{}
	}
	p.tags[tag] = ver
	p.docs = nil
	return nil
}

// Packages lists the package names, sorted.
func (r *Registry) Packages() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	names := lists.SortedKeys(r.pkgs)
	return names
}

// Versions lists a package's versions in ascending semver order.
func (r *Registry) Versions(name string) []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	p := r.pkgs[name]
	if p == nil {
		return nil
	}
	out := make([]string, 0, len(p.versions))
	for _, v := range p.sortedVersions() {
		out = append(out, v.version)
	}
	return out
}

// Integrity returns the dist.integrity (sha512 SRI) the registry advertises
// for name@version, so tests can compare without fetching.
func (r *Registry) Integrity(name, ver string) (string, error) {
	r.mu.Lock()
	p := r.pkgs[name]
	var v *version
	if p != nil {
		v = p.versions[ver]
	}
	r.mu.Unlock()
	if v == nil {
		return "", fmt.Errorf("registryserver: no version %s@%s", name, ver)
	}
	t, err := v.tarball()
	if err != nil {
		return "", err
	}
	return t.integrity, nil
}

// SetMaxAge makes packument answers carry Cache-Control max-age, as a real
// registry's do (300 s), so clients may reuse them without asking.
func (r *Registry) SetMaxAge(d time.Duration) {
	r.mu.Lock()
	r.maxAge = d
	r.mu.Unlock()
}

func (p *pkg) sortedVersions() []*version {
	vs := make([]*version, 0, len(p.versions))
	for _, v := range p.versions {
		vs = append(vs, v)
	}
	sort.Slice(vs, func(i, j int) bool { return vs[i].sv.LessThan(vs[j].sv) })
	return vs
}

// distTags returns the explicit tags, with latest defaulting to the highest
// non-prerelease version (or the highest of all when every one is a
// prerelease), as npm publish leaves it.
func (p *pkg) distTags() map[string]string {
	tags := map[string]string{}
	for k, v := range p.tags {
		tags[k] = v
	}
	if _, ok := tags["latest"]; ok {
		return tags
	}
	vs := p.sortedVersions()
	for i := len(vs) - 1; i >= 0; i-- {
		if vs[i].sv.Prerelease() == "" {
			tags["latest"] = vs[i].version
			return tags
		}
	}
	if len(vs) > 0 {
		tags["latest"] = vs[len(vs)-1].version
	}
	return tags
}

// synthEpoch anchors synthesized publish times: version i (in semver order)
// was published i days after it, so times are deterministic and ordered.
var synthEpoch = time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)

const isoMillis = "2006-01-02T15:04:05.000Z"

// timeMap returns created, modified and one entry per version.
func (p *pkg) timeMap() map[string]string {
	out := map[string]string{}
	var first, last string
	for i, v := range p.sortedVersions() {
		t, ok := p.times[v.version]
		if !ok {
			t = synthEpoch.Add(time.Duration(i) * 24 * time.Hour).Format(isoMillis)
		}
		out[v.version] = t
		if first == "" || t < first {
			first = t
		}
		if t > last {
			last = t
		}
	}
	out["created"] = first
	out["modified"] = last
	if t, ok := p.times["created"]; ok {
		out["created"] = t
	}
	if t, ok := p.times["modified"]; ok {
		out["modified"] = t
	}
	return out
}

func checkName(name string) error {
	if name == "" {
		return errors.New(`manifest has no "name"`)
	}
	if strings.HasPrefix(name, "@") {
		scope, rest, ok := strings.Cut(name, "/")
		if !ok || len(scope) < 2 || rest == "" || strings.Contains(rest, "/") {
			return fmt.Errorf("package name %q: a scoped name is @scope/name", name)
		}
		return nil
	}
	if strings.Contains(name, "/") || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "-") {
		return fmt.Errorf("package name %q is not a valid npm name", name)
	}
	return nil
}

func checkFilePath(p string) error {
	if p == "" || strings.HasPrefix(p, "/") || strings.Contains(p, "\\") || !fs.ValidPath(p) {
		return fmt.Errorf("file path %q: want a relative slash path inside the package", p)
	}
	return nil
}
