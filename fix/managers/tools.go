package managers

import (
	"context"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/uptide/uptide/engine/registry"
	"github.com/uptide/uptide/internal/cache"
	"github.com/uptide/uptide/internal/proc"
)

// Fetch brings name@version's published package into a directory that
// outlives the run, and returns it.
type Fetch func(ctx context.Context, name, version string) (*Tool, error)

// Tool is a fetched package: its files, and the hex digests of the
// tarball they came from by algorithm (sha1, sha224, sha256, sha512), which
// a packageManager hash ("pnpm@9.15.9+sha512.<hex>") names.
type Tool struct {
	Dir     string
	Digests map[string]string
}

// fetched is the manager m@version from the registry, run by node.
// hash, when set, is packageManager's "sha512.<hex>": the tarball must have it.
func fetched(ctx context.Context, fetch Fetch, m Manager, version, hash string, env []string) (*Detected, error) {
	pkg := m.Package()
	node, err := lookPath(env, "node")
	if err != nil {
		return nil, fmt.Errorf("no node on PATH to run it")
	}
	tool, err := fetch(ctx, pkg, version)
	if err != nil {
		return nil, err
	}
	if algo, want, ok := strings.Cut(hash, "."); ok && m.PackageHash() {
		// corepack's hash is of the tarball it downloads, which for these
		// is the registry's (Yarn Berry's is its single-file release).
		got, known := tool.Digests[algo]
		switch {
		case !known:
			return nil, fmt.Errorf("packageManager's hash is %s, which uptide cannot check: name a sha1, sha224, sha256 or sha512 hash, or none", algo)
		case got != strings.ToLower(want):
			return nil, fmt.Errorf("the registry's %s@%s tarball has %s %s, not packageManager's %s: it is not the release the repository pinned", pkg, version, algo, got, want)
		}
	}
	dir := tool.Dir
	script, err := binScript(dir, m.Command())
	if err != nil {
		return nil, err
	}
	// The release is the registry's package of that version, its
	// integrity checked: its manifest says the version its --version
	// prints, without starting node and the manager for it (0.7–0.9 s of
	// CPU, seconds of a loaded machine, before the install could start).
	have, err := manifestVersion(dir)
	if err != nil {
		return nil, err
	}
	if have != version {
		return nil, fmt.Errorf("%s is %s, not %s", filepath.Join(dir, "package.json"), have, version)
	}
	return &Detected{Manager: m, Version: have, Argv: []string{node, script}, Binary: script}, nil
}

// manifestVersion is the version the package.json in dir names.
func manifestVersion(dir string) (string, error) {
	file := filepath.Join(dir, "package.json")
	data, err := os.ReadFile(file)
	if err != nil {
		return "", err
	}
	var manifest struct {
		Version string `json:"version"`
	}
	if err := json.Unmarshal(data, &manifest); err != nil {
		return "", fmt.Errorf("%s: %w", file, err)
	}
	return manifest.Version, nil
}

// binScript is the file the package's bin field names for command.
func binScript(dir, command string) (string, error) {
	data, err := os.ReadFile(filepath.Join(dir, "package.json"))
	if err != nil {
		return "", err
	}
	var manifest struct {
		Bin json.RawMessage `json:"bin"`
	}
	if err := json.Unmarshal(data, &manifest); err != nil {
		return "", fmt.Errorf("%s: %w", filepath.Join(dir, "package.json"), err)
	}
	var bins map[string]string
	if err := json.Unmarshal(manifest.Bin, &bins); err != nil || bins[command] == "" {
		return "", fmt.Errorf("%s names no %s binary", filepath.Join(dir, "package.json"), command)
	}
	script := filepath.Join(dir, filepath.FromSlash(bins[command]))
	if rel, err := filepath.Rel(dir, script); err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("%s: the %s binary %q is outside the package", filepath.Join(dir, "package.json"), command, bins[command])
	}
	return script, nil
}

// RegistryFetch fetches through client (the repository's registry, its
// integrity verified) into the cache's managers folder, once per version:
// later runs start it from there. The tarball's digests are kept beside
// its files.
func RegistryFetch(client *registry.Client) Fetch {
	return func(ctx context.Context, name, version string) (*Tool, error) {
		parent, err := cache.Dir("managers")
		if err != nil {
			return nil, err
		}
		var digests map[string]string
		dir, err := cache.Fill(parent, strings.ReplaceAll(name, "/", "+")+"@"+version, func(tmp string) error {
			p, err := client.Fetch(ctx, name, version)
			if err != nil {
				return err
			}
			defer func() { _ = p.Remove() }()
			if p.Version != version {
				return fmt.Errorf("the registry gave %s@%s for %s", name, p.Version, version)
			}
			if digests, err = fileDigests(p.Tarball); err != nil {
				return err
			}
			if err := copyFiles(p.Dir, tmp); err != nil {
				return fmt.Errorf("copying %s@%s into %s: %w", name, version, parent, err)
			}
			data, _ := json.Marshal(digests)
			return os.WriteFile(filepath.Join(tmp, digestsFile), data, 0o644)
		})
		if err != nil {
			return nil, err
		}
		// Another run's copy, or one of an earlier run: its own record says
		// which tarball it is.
		if data, err := os.ReadFile(filepath.Join(dir, digestsFile)); err == nil {
			var kept map[string]string
			if json.Unmarshal(data, &kept) == nil && len(kept) > 0 {
				digests = kept
			}
		}
		if len(digests) == 0 {
			// A folder an earlier uptide filled (it kept the digests in the
			// cache's completion marker): the tarball is fetched once more
			// for the record, which is kept beside the files from then on.
			if digests, err = recordDigests(ctx, client, name, version, dir); err != nil {
				return nil, fmt.Errorf("%s holds no record of the tarball it came from, and fetching it again failed: %w", dir, err)
			}
		}
		return &Tool{Dir: dir, Digests: digests}, nil
	}
}

// recordDigests fetches name@version's tarball again and writes its
// digests into dir's record (renamed into place whole: another run may be
// reading the folder).
func recordDigests(ctx context.Context, client *registry.Client, name, version, dir string) (map[string]string, error) {
	p, err := client.Fetch(ctx, name, version)
	if err != nil {
		return nil, err
	}
	defer func() { _ = p.Remove() }()
	if p.Version != version {
		return nil, fmt.Errorf("the registry gave %s@%s for %s", name, p.Version, version)
	}
	digests, err := fileDigests(p.Tarball)
	if err != nil {
		return nil, err
	}
	data, _ := json.Marshal(digests)
	tmp, err := os.CreateTemp(dir, digestsFile+".tmp-")
	if err != nil {
		return digests, nil // a read-only cache: the record serves this run
	}
	_, werr := tmp.Write(data)
	if cerr := tmp.Close(); werr != nil || cerr != nil || os.Rename(tmp.Name(), filepath.Join(dir, digestsFile)) != nil {
		_ = os.Remove(tmp.Name())
	}
	return digests, nil
}

// digestsFile records, in a fetched manager's folder, the digests of the
// tarball it came from, which a packageManager hash is checked against.
const digestsFile = ".tarball-digests.json"

// fileDigests are the hex digests of a file by the algorithms a
// packageManager hash may name.
func fileDigests(path string) (map[string]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	s1, s224, s256, s512 := sha1.Sum(data), sha256.Sum224(data), sha256.Sum256(data), sha512.Sum512(data)
	return map[string]string{"sha1": hex.EncodeToString(s1[:]), "sha224": hex.EncodeToString(s224[:]),
		"sha256": hex.EncodeToString(s256[:]), "sha512": hex.EncodeToString(s512[:])}, nil
}

// copyFiles copies the regular files and directories below src to dst.
func copyFiles(src, dst string) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		target := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(target, 0o755)
		case !d.Type().IsRegular():
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, info.Mode().Perm()|0o600)
	})
}

// Shim writes into dir a program named as m's command that runs m, for
// scripts that call the manager by name.
func Shim(dir string, m *Detected) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	quoted := make([]string, len(m.Argv))
	for i, a := range m.Argv {
		quoted[i] = proc.ShellQuote(a)
	}
	body := "#!/bin/sh\nexec " + strings.Join(quoted, " ") + " \"$@\"\n"
	return os.WriteFile(filepath.Join(dir, m.Manager.Command()), []byte(body), 0o755)
}
