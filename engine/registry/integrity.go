package registry

import (
	"bytes"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"hash"
	"strings"
)

// algorithms in ascending strength; like ssri, only the strongest one an
// integrity string names is checked.
var algorithms = []struct {
	name string
	new  func() hash.Hash
}{
	{"sha1", sha1.New},
	{"sha256", sha256.New},
	{"sha384", sha512.New384},
	{"sha512", sha512.New},
}

// checksum is what a tarball must hash to: any of digests under algo.
type checksum struct {
	algo    string
	new     func() hash.Hash
	digests [][]byte
}

// parseIntegrity reads dist.integrity (SRI: "sha512-<base64> ...") and
// falls back to dist.shasum (sha1 hex, from registries older than SRI).
// It returns nil, nil when the registry gave neither.
func parseIntegrity(sri, shasum string) (*checksum, error) {
	best := -1
	var digests [][]byte
	for _, field := range strings.Fields(sri) {
		algo, b64, ok := strings.Cut(field, "-")
		if !ok {
			continue
		}
		b64, _, _ = strings.Cut(b64, "?") // SRI options are not part of the digest
		idx := -1
		for i, a := range algorithms {
			if strings.EqualFold(a.name, algo) {
				idx = i
			}
		}
		if idx < 0 || idx < best {
			continue
		}
		d, err := base64.StdEncoding.DecodeString(b64)
		if err != nil || len(d) != algorithms[idx].new().Size() {
			continue
		}
		if idx > best {
			best, digests = idx, nil
		}
		digests = append(digests, d)
	}
	if best >= 0 {
		return &checksum{algo: algorithms[best].name, new: algorithms[best].new, digests: digests}, nil
	}
	if shasum = strings.TrimSpace(shasum); shasum != "" {
		d, err := hex.DecodeString(shasum)
		if err != nil || len(d) != sha1.Size {
			return nil, fmt.Errorf("dist.shasum %q is not a sha1 hex digest", shasum)
		}
		return &checksum{algo: "sha1", new: sha1.New, digests: [][]byte{d}}, nil
	}
	if strings.TrimSpace(sri) != "" {
		return nil, fmt.Errorf("dist.integrity names no supported algorithm (sha512, sha384, sha256, sha1)")
	}
	return nil, nil
}

func (c *checksum) matches(sum []byte) bool {
	for _, d := range c.digests {
		if bytes.Equal(d, sum) {
			return true
		}
	}
	return false
}

func (c *checksum) String() string {
	if len(c.digests) == 0 {
		return c.algo
	}
	return c.algo + "-" + base64.StdEncoding.EncodeToString(c.digests[0])
}

func sri(algo string, sum []byte) string {
	return algo + "-" + base64.StdEncoding.EncodeToString(sum)
}
