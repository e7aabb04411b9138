package jsonl

import "github.com/klauspost/compress/zstd"

// zstdMagic starts every zstd frame (RFC 8878, section 3.1.1), little-endian
// 0xFD2FB528.
var zstdMagic = [4]byte{0x28, 0xB5, 0x2F, 0xFD}

// isZstd reports whether a stream beginning with head is zstd-compressed: a
// regular frame, or a skippable frame (magic 0x184D2A50 to 0x184D2A5F), which
// some tools put in front of the data.
func isZstd(head []byte) bool {
	if len(head) < 4 {
		return false
	}
	if [4]byte(head[:4]) == zstdMagic {
		return true
	}
	return head[0]&0xF0 == 0x50 && head[1] == 0x2A && head[2] == 0x4D && head[3] == 0x18
}

// Decoder concurrency 1 decodes in the reading goroutine: no background
// goroutines to leak when a caller forgets Close, and on a loaded machine the
// JSON decoding, not decompression, is the bottleneck anyway (see the
// benchmarks).
var decoderOptions = []zstd.DOption{zstd.WithDecoderConcurrency(1)}

// The default level compresses generated CLIF about 20:1 against 13:1 for
// the fastest, at 170 against 220 MB/s; a second encoder goroutine gains
// little on a machine whose cores are busy compiling test cases.
var encoderOptions = []zstd.EOption{
	zstd.WithEncoderLevel(zstd.SpeedDefault),
	zstd.WithEncoderConcurrency(1),
}
