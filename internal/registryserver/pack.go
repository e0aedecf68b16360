package registryserver

import (
	"archive/tar"
	"bytes"
	"crypto/sha1"
	"crypto/sha512"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"hash/crc32"
	"time"

	"github.com/uptide/uptide/internal/lists"
)

// packMTime is the timestamp npm itself stamps on every entry it packs, so
// our tarballs look like published ones and never depend on the clock.
var packMTime = time.Date(1985, 10, 26, 8, 15, 0, 0, time.UTC)

type tarball struct {
	data         []byte
	integrity    string // sha512 SRI
	shasum       string // sha1 hex
	fileCount    int
	unpackedSize int
}

func (v *version) tarball() (*tarball, error) {
	v.packOnce.Do(func() {
		v.packed, v.packErr = pack(v.files, v.exec)
		if v.packErr != nil {
			v.packErr = fmt.Errorf("registryserver: pack %s@%s: %w", v.name, v.version, v.packErr)
		}
	})
	return v.packed, v.packErr
}

// pack builds the gzip'd tar npm publishes: entries under "package/", sorted,
// mode 0644, npm's fixed mtime, no owner names, wrapped by storedGzip.
func pack(files map[string][]byte, exec map[string]bool) (*tarball, error) {
	names := lists.SortedKeys(files)

	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	size := 0
	for _, n := range names {
		body := files[n]
		mode := int64(0o644)
		if exec[n] {
			mode = 0o755
		}
		hdr := &tar.Header{
			Typeflag: tar.TypeReg,
			Name:     "package/" + n,
			Mode:     mode,
			Size:     int64(len(body)),
			ModTime:  packMTime,
			Format:   tar.FormatUSTAR,
		}
		if len(hdr.Name) > 100 {
			// USTAR's prefix split depends on where slashes fall; PAX
			// always fits and is just as deterministic.
			hdr.Format = tar.FormatPAX
		}
		if err := tw.WriteHeader(hdr); err != nil {
			return nil, fmt.Errorf("%s: %w", n, err)
		}
		if _, err := tw.Write(body); err != nil {
			return nil, fmt.Errorf("%s: %w", n, err)
		}
		size += len(body)
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	data := storedGzip(buf.Bytes())
	s512 := sha512.Sum512(data)
	s1 := sha1.Sum(data)
	return &tarball{
		data:         data,
		integrity:    "sha512-" + base64.StdEncoding.EncodeToString(s512[:]),
		shasum:       hex.EncodeToString(s1[:]),
		fileCount:    len(names),
		unpackedSize: size,
	}, nil
}

// maxStoredBlock is the largest payload of one deflate stored block.
const maxStoredBlock = 65535

// storedGzip wraps data in a gzip member whose deflate stream is only stored
// (uncompressed) blocks. Compressed output may change between Go releases and
// would invalidate every integrity recorded in the fixture lockfiles; stored
// blocks are fixed by RFC 1951. The layout is the one compress/gzip writes at
// NoCompression (full 65535-byte blocks, the remainder, an empty final
// block, zero mtime, OS 255), written here so no library change can move a
// byte, and without the compressor state gzip allocates per writer.
func storedGzip(data []byte) []byte {
	blocks := (len(data) + maxStoredBlock - 1) / maxStoredBlock
	out := make([]byte, 0, 10+len(data)+5*(blocks+1)+8)
	out = append(out, 0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255)
	block := func(payload []byte, final bool) {
		var head byte
		if final {
			head = 1
		}
		n := uint16(len(payload))
		out = append(out, head)
		out = binary.LittleEndian.AppendUint16(out, n)
		out = binary.LittleEndian.AppendUint16(out, ^n)
		out = append(out, payload...)
	}
	for rest := data; len(rest) > 0; {
		n := min(len(rest), maxStoredBlock)
		block(rest[:n], false)
		rest = rest[n:]
	}
	block(nil, true)
	out = binary.LittleEndian.AppendUint32(out, crc32.ChecksumIEEE(data))
	out = binary.LittleEndian.AppendUint32(out, uint32(len(data)))
	return out
}
