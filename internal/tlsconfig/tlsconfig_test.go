package tlsconfig

import (
	"crypto/tls"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"megaco/internal/tlsconfig/tlstest"
)

func TestConfigs(t *testing.T) {
	f := tlstest.Write(t)
	if c, err := Server("", "", ""); c != nil || err != nil {
		t.Errorf("no files: %v %v, want no TLS", c, err)
	}
	c, err := Server(f.ServerCert, f.ServerKey, "")
	if err != nil || len(c.Certificates) != 1 || c.ClientAuth != tls.NoClientCert {
		t.Fatalf("server: %+v %v", c, err)
	}
	c, err = Server(f.ServerCert, f.ServerKey, f.CA)
	if err != nil || c.ClientAuth != tls.RequireAndVerifyClientCert || c.ClientCAs == nil {
		t.Fatalf("mutual TLS: %+v %v", c, err)
	}
	c, err = Client(f.CA, f.ClientCert, f.ClientKey, "localhost")
	if err != nil || c.RootCAs == nil || len(c.Certificates) != 1 || c.ServerName != "localhost" {
		t.Fatalf("client: %+v %v", c, err)
	}
	notPEM := filepath.Join(t.TempDir(), "x.pem")
	if err := os.WriteFile(notPEM, []byte("hello"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		err  error
		want string
	}{
		{second(Server(f.ServerCert, "", "")), "give both the certificate and the key"},
		{second(Server("", "", f.CA)), "a client CA needs a server certificate"},
		{second(Server(f.ServerCert, f.ClientKey, "")), "private key does not match"},
		{second(Server(f.ServerCert, f.ServerKey, notPEM)), "holds no PEM certificate"},
		{second(Server(f.ServerCert, f.ServerKey, "/nonexistent")), "no such file"},
		{second(Client(f.CA, f.ClientCert, "", "")), "give both the client certificate and its key"},
		{second(Client(notPEM, "", "", "")), "holds no PEM certificate"},
	} {
		if c.err == nil || !strings.Contains(c.err.Error(), c.want) {
			t.Errorf("got %v, want %q", c.err, c.want)
		}
	}
}

func second(_ *tls.Config, err error) error { return err }
