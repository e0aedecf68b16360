package registry

import (
	"context"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/uptide/uptide/engine/model"
)

const tempPrefix = "uptide-pkg-"

// Package is one published version, downloaded, verified and extracted.
type Package struct {
	Name     string
	Version  string
	Dir      string // the extracted contents (package/ stripped): a fresh temp dir, or Shared's copy in the cache
	Tarball  string // the verified tarball in the cache
	Manifest model.Release

	tempRoot string
	shared   bool
}

// Remove deletes the extracted directory. It refuses any directory Fetch
// did not create, so a Package built or altered by hand cannot make it
// delete something else; Shared's copy stays for the next caller.
func (p *Package) Remove() error {
	if p == nil || p.Dir == "" || p.shared {
		return nil
	}
	dir := filepath.Clean(p.Dir)
	if p.tempRoot == "" || filepath.Dir(dir) != p.tempRoot || !strings.HasPrefix(filepath.Base(dir), tempPrefix) {
		return fmt.Errorf("refusing to remove %s: not a directory extracted by registry.Fetch", p.Dir)
	}
	return os.RemoveAll(dir)
}

// Fetch resolves name at an exact version or a dist-tag (ranges are
// refused; "" means "latest"), downloads its tarball into the cache unless
// a copy there passes verification, checks its integrity, and extracts it
// into a fresh temporary directory. Call Remove when done with it.
func (c *Client) Fetch(ctx context.Context, name, versionOrTag string) (*Package, error) {
	return c.fetch(ctx, name, versionOrTag, false)
}

// Shared is Fetch for readers: the tarball is extracted once into the
// cache, under the same integrity key as the tarball, and every later
// call, in this run or another, gets that copy without extracting again
// (stripe's 1,640 files cost a check more CPU to write than to read).
// Callers only read Dir: nothing may be written into it. Where the cache
// cannot take the copy (a cache restored read-only), the copy is a
// temporary directory as Fetch's is. Remove is safe to call either way.
func (c *Client) Shared(ctx context.Context, name, versionOrTag string) (*Package, error) {
	return c.fetch(ctx, name, versionOrTag, true)
}

func (c *Client) fetch(ctx context.Context, name, versionOrTag string, shared bool) (*Package, error) {
	if err := validateName(name); err != nil {
		return nil, &Error{Package: name, Reason: err.Error()}
	}
	want, isVersion, err := parseWanted(versionOrTag)
	if err != nil {
		return nil, &Error{Package: name, Reason: err.Error()}
	}
	reg, err := c.registryFor(name)
	if err != nil {
		return nil, err
	}
	rel, err := c.resolveRelease(ctx, name, reg, want, isVersion)
	if err != nil {
		return nil, err
	}
	id := name + "@" + rel.Version
	base, _ := url.Parse(reg)
	tarURL, err := base.Parse(rel.Dist.Tarball)
	if err != nil || rel.Dist.Tarball == "" || (tarURL.Scheme != "http" && tarURL.Scheme != "https") {
		return nil, &Error{Package: id, Host: base.Host, Reason: "the registry gives no usable tarball URL for this version"}
	}
	sum, err := parseIntegrity(rel.Dist.Integrity, rel.Dist.Shasum)
	if err != nil {
		return nil, &Error{Package: id, Host: base.Host, Reason: err.Error()}
	}
	if c.cacheErr != nil || c.cacheRoot == "" {
		reason := "no cache directory: set UPTIDE_CACHE_DIR"
		if c.cacheErr != nil {
			reason = c.cacheErr.Error()
		}
		return nil, &Error{Package: id, Reason: reason}
	}
	dir := filepath.Join(c.cacheRoot, "tarballs", filepath.FromSlash(name))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, &Error{Package: id, Reason: "cannot create the tarball cache", Err: err}
	}
	path := filepath.Join(dir, rel.Version+"-"+tarballKey(sum, tarURL.String())+".tgz")
	dl := download{client: c, pkg: id, registry: reg, url: tarURL, path: path, sum: sum}

	// One Fetch per tarball at a time within a run: a second caller then
	// finds the verified copy instead of racing the first one's download
	// (or deleting the file it is about to extract).
	unlock, err := c.lockFile(ctx, path)
	if err != nil {
		return nil, &Error{Package: id, Host: tarURL.Host, Reason: "canceled", Err: err}
	}
	defer unlock()
	cached := dl.cachedCopyValid()
	if !cached {
		if err := dl.fetch(ctx); err != nil {
			return nil, err
		}
	}
	pkg := &Package{Name: name, Version: rel.Version, Tarball: path, Manifest: rel}
	var kept string
	if shared {
		kept = filepath.Join(c.cacheRoot, "unpacked", filepath.FromSlash(name), filepath.Base(strings.TrimSuffix(path, ".tgz")))
		if fi, err := os.Stat(kept); err == nil && fi.IsDir() {
			pkg.Dir, pkg.shared = kept, true
			return pkg, nil
		}
	}
	out, err := extractTemp(path, kept)
	if err != nil && cached && sum == nil && !errors.Is(err, errUnsafeTarball) {
		// Without a digest, a damaged cached copy only shows when it
		// fails to unpack: fetch it again once.
		_ = os.Remove(path)
		if ferr := dl.fetch(ctx); ferr != nil {
			return nil, ferr
		}
		out, err = extractTemp(path, kept)
	}
	if err != nil {
		return nil, &Error{Package: id, Host: tarURL.Host, Reason: "cannot extract the tarball", Err: err}
	}
	pkg.Dir, pkg.tempRoot = out, filepath.Dir(out)
	if kept != "" && keep(out, kept) {
		pkg.Dir, pkg.tempRoot, pkg.shared = kept, "", true
	}
	return pkg, nil
}

// extractTemp extracts the tarball into a fresh directory: beside kept
// when the cache can hold one there (so that keeping it is a rename),
// else in the system's temporary directory.
func extractTemp(tarball, kept string) (string, error) {
	parent := ""
	if kept != "" && os.MkdirAll(filepath.Dir(kept), 0o755) == nil {
		parent = filepath.Dir(kept)
	}
	f, err := os.Open(tarball)
	if err != nil {
		return "", err
	}
	defer f.Close()
	dir, err := os.MkdirTemp(parent, tempPrefix+"*")
	if err != nil && parent != "" {
		dir, err = os.MkdirTemp("", tempPrefix+"*")
	}
	if err != nil {
		return "", err
	}
	if err := extractTarball(f, dir, defaultExtractLimits); err != nil {
		os.RemoveAll(dir)
		return "", err
	}
	return dir, nil
}

// keep renames a complete extraction to its place in the cache. Another
// process may have put its own there first: that one is as good, and ours
// goes. A copy that cannot be kept (another file system, a read-only
// cache) stays the caller's temporary one.
func keep(out, kept string) bool {
	if filepath.Dir(out) != filepath.Dir(kept) {
		return false
	}
	if err := os.Rename(out, kept); err == nil {
		return true
	}
	if fi, err := os.Stat(kept); err == nil && fi.IsDir() {
		_ = os.RemoveAll(out)
		return true
	}
	return false
}

// tarballKey tells apart the tarballs registries serve under one version
// (a mirror's rebuild, a private registry's own publish): by the integrity
// they are verified against, or, where the registry gives none, by where
// they come from. Two registries then never overwrite each other's copy,
// and an unverifiable copy is never taken for another registry's.
func tarballKey(sum *checksum, tarURL string) string {
	h := sha256.New()
	if sum == nil {
		fmt.Fprintf(h, "url\x00%s", tarURL)
	} else {
		fmt.Fprintf(h, "%s", sum.algo)
		for _, d := range sum.digests {
			fmt.Fprintf(h, "\x00%x", d)
		}
	}
	return hex.EncodeToString(h.Sum(nil))[:32]
}

func (c *Client) lockFile(ctx context.Context, path string) (func(), error) {
	v, _ := c.fileLocks.LoadOrStore(path, make(chan struct{}, 1))
	ch := v.(chan struct{})
	select {
	case ch <- struct{}{}:
		return func() { <-ch }, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// resolveRelease asks the per-version endpoint first (one small document)
// and falls back to the packument for registries without it, which also
// yields a useful "not found".
func (c *Client) resolveRelease(ctx context.Context, name, reg, want string, isVersion bool) (model.Release, error) {
	if rel, ok := c.versionManifest(ctx, name, reg, want, isVersion); ok {
		return rel, nil
	}
	if ctx.Err() != nil {
		return model.Release{}, &Error{Package: name, Host: hostOf(reg), Reason: "canceled", Err: ctx.Err()}
	}
	p, err := c.Packument(ctx, name, false)
	if err != nil {
		return model.Release{}, err
	}
	version := want
	if !isVersion {
		v, ok := p.DistTags[want]
		if !ok {
			tags := make([]string, 0, len(p.DistTags))
			for t := range p.DistTags {
				tags = append(tags, t)
			}
			sort.Strings(tags)
			return model.Release{}, &Error{Package: name, Host: hostOf(reg), Status: http.StatusNotFound,
				Reason: fmt.Sprintf("no dist-tag %q (tags: %s)", want, strings.Join(tags, ", "))}
		}
		version = v
	}
	rel, ok := p.Versions[version]
	if !ok {
		reason := fmt.Sprintf("no version %s in the registry", version)
		if latest := p.DistTags["latest"]; latest != "" {
			reason += " (latest is " + latest + ")"
		}
		return model.Release{}, &Error{Package: name, Host: hostOf(reg), Status: http.StatusNotFound, Reason: reason}
	}
	if !exactVersion.MatchString(rel.Version) {
		return model.Release{}, &Error{Package: name, Host: hostOf(reg), Reason: fmt.Sprintf("the registry lists an invalid version %q", rel.Version)}
	}
	return rel, nil
}

// versionManifest asks GET {registry}/{name}/{version}. Any answer but a
// matching manifest means "use the packument": some registries lack the
// endpoint, and the public one refuses it for scoped names in the encoded
// form, which is why the scope's slash stays literal here.
func (c *Client) versionManifest(ctx context.Context, name, reg, want string, isVersion bool) (model.Release, bool) {
	u, err := url.Parse(reg + strings.Replace(escapeName(name), "%2f", "/", 1) + "/" + url.PathEscape(want))
	if err != nil {
		return model.Release{}, false
	}
	var rel model.Release
	ok := false
	_ = c.get(ctx, request{pkg: name, url: u, registry: reg, accept: fullAccept, probe: true}, func(resp *http.Response, r io.Reader) error {
		if resp.StatusCode != http.StatusOK {
			return nil
		}
		b, err := readAllLimited(r, 16<<20)
		if err != nil {
			return err
		}
		got, err := decodeRelease(b)
		if err != nil {
			return nil
		}
		if got.Name == name && got.Dist.Tarball != "" && exactVersion.MatchString(got.Version) && (!isVersion || got.Version == want) {
			rel, ok = got, true
		}
		return nil
	})
	return rel, ok
}

// download is one tarball transfer into the cache.
type download struct {
	client   *Client
	pkg      string // name@version, for errors
	registry string
	url      *url.URL
	path     string
	sum      *checksum
}

// cachedCopyValid reports whether the cached tarball passes verification;
// one that does not is deleted so it is fetched again.
func (d *download) cachedCopyValid() bool {
	f, err := os.Open(d.path)
	if err != nil {
		return false
	}
	if d.sum == nil {
		f.Close()
		return true
	}
	h := d.sum.new()
	_, err = io.Copy(h, f)
	f.Close()
	if err == nil && d.sum.matches(h.Sum(nil)) {
		return true
	}
	_ = os.Remove(d.path)
	return false
}

func (d *download) fetch(ctx context.Context) error {
	c := d.client
	req := request{pkg: d.pkg, url: d.url, registry: d.registry, accept: "application/octet-stream, */*", tarball: true}
	return c.get(ctx, req, func(resp *http.Response, r io.Reader) error {
		switch resp.StatusCode {
		case http.StatusOK:
		case http.StatusNotFound:
			return c.newError(req, resp.StatusCode, "404: the tarball is missing from the registry", nil)
		default:
			return c.newError(req, resp.StatusCode, statusReason(resp.StatusCode, "", false), nil)
		}
		tmp, err := os.CreateTemp(filepath.Dir(d.path), ".tmp-"+filepath.Base(d.path)+"-*")
		if err != nil {
			return c.newError(req, 0, "cannot write to the tarball cache", unwrapPathError(err))
		}
		defer os.Remove(tmp.Name()) // a no-op once renamed
		algo, h := "sha512", hash.Hash(sha512.New())
		if d.sum != nil {
			algo, h = d.sum.algo, d.sum.new()
		}
		limit := c.maxTarball
		if resp.ContentLength >= 0 {
			// Never more than declared: a body running past its length
			// is the next response's garbage, not this tarball.
			limit = min(limit, resp.ContentLength)
		}
		n, err := io.Copy(io.MultiWriter(tmp, h), io.LimitReader(r, limit+1))
		if cerr := tmp.Close(); err == nil && cerr != nil {
			return c.newError(req, 0, "cannot write to the tarball cache", cerr)
		}
		if err != nil {
			return err
		}
		if n > c.maxTarball {
			return c.newError(req, resp.StatusCode, tooLarge(true, c.maxTarball), nil)
		}
		if got := h.Sum(nil); d.sum != nil && !d.sum.matches(got) {
			return c.newError(req, resp.StatusCode, fmt.Sprintf("integrity check failed: expected %s, got %s", d.sum, sri(algo, got)), nil)
		}
		if err := os.Rename(tmp.Name(), d.path); err != nil {
			return c.newError(req, 0, "cannot write to the tarball cache", err)
		}
		return nil
	})
}

// exactVersion is a full semver version, the only kind of version Fetch
// takes and the only kind it will use as a file name.
var exactVersion = regexp.MustCompile(`^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$`)

// parseWanted splits Fetch's argument into an exact version or a dist-tag.
// Anything npm would read as a range is refused: resolving ranges is the
// caller's decision, made against the packument.
func parseWanted(s string) (string, bool, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return "latest", false, nil
	}
	if v := strings.TrimLeft(s, "=vV"); exactVersion.MatchString(v) && len(s)-len(v) <= 1 {
		return v, true, nil
	}
	if strings.ContainsAny(s, " \t<>=^~|*/\\%") || rangeLike.MatchString(s) {
		return "", false, fmt.Errorf("%q is a range, not an exact version or a dist-tag: resolve it to a version first", s)
	}
	return s, false, nil
}

// rangeLike matches what node-semver would accept as a range (and npm
// therefore never accepts as a tag): "1", "1.2", "v2", "1.x", "x".
var rangeLike = regexp.MustCompile(`^([vV]?\d|[xX]$|[xX]\.)`)
