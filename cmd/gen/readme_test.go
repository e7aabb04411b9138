package main

import (
	"io"
	"testing"

	"cliff/lib/scripttest"
)

// TestReadmeSynopsis checks that the README's synopsis of cliff-gen names
// every flag it has and no other.
func TestReadmeSynopsis(t *testing.T) { scripttest.CheckSynopsis(t, app(io.Discard)) }
