package client_test

import (
	"testing"

	"github.com/enginehq/engine/providers/client"
	"github.com/enginehq/engine/providers/client/sharedtest"
)

func TestLocalStateContract(t *testing.T) {
	sharedtest.Run(t, func(*testing.T) client.SharedState { return client.NewLocalState() })
}
