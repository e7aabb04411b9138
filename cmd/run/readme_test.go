package main

import (
	"testing"

	"cliff/lib/scripttest"
)

// TestReadmeSynopsis checks that the README's synopsis of cliff-run names
// every flag it has and no other.
func TestReadmeSynopsis(t *testing.T) { scripttest.CheckSynopsis(t, app()) }
