// Package tlsconfig builds the TLS configurations of the service (gRPC and
// HTTP listeners) and of its clients (the load generator) from PEM files,
// with the checks an operator needs to hear about at start rather than at
// the first handshake.
package tlsconfig

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"os"
)

// Server returns the listeners' TLS configuration: certFile and keyFile
// are the server's certificate chain and key; clientCAFile, when given,
// makes the server require client certificates signed by one of its CAs
// (mutual TLS). All empty: nil, no TLS.
func Server(certFile, keyFile, clientCAFile string) (*tls.Config, error) {
	if certFile == "" && keyFile == "" {
		if clientCAFile != "" {
			return nil, errors.New("tls: a client CA needs a server certificate and key")
		}
		return nil, nil
	}
	if certFile == "" || keyFile == "" {
		return nil, errors.New("tls: give both the certificate and the key")
	}
	cert, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		return nil, fmt.Errorf("tls: %w", err)
	}
	cfg := &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}
	if clientCAFile != "" {
		if cfg.ClientCAs, err = pool(clientCAFile); err != nil {
			return nil, err
		}
		cfg.ClientAuth = tls.RequireAndVerifyClientCert
	}
	return cfg, nil
}

// Client returns a client's TLS configuration: caFile holds the CAs that
// sign the server's certificate (empty: the system's); certFile and
// keyFile, when given, are the client's certificate for mutual TLS;
// serverName overrides the name checked in the server's certificate.
func Client(caFile, certFile, keyFile, serverName string) (*tls.Config, error) {
	cfg := &tls.Config{MinVersion: tls.VersionTLS12, ServerName: serverName}
	if caFile != "" {
		var err error
		if cfg.RootCAs, err = pool(caFile); err != nil {
			return nil, err
		}
	}
	if (certFile == "") != (keyFile == "") {
		return nil, errors.New("tls: give both the client certificate and its key")
	}
	if certFile != "" {
		cert, err := tls.LoadX509KeyPair(certFile, keyFile)
		if err != nil {
			return nil, fmt.Errorf("tls: %w", err)
		}
		cfg.Certificates = []tls.Certificate{cert}
	}
	return cfg, nil
}

func pool(file string) (*x509.CertPool, error) {
	pem, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("tls: %w", err)
	}
	p := x509.NewCertPool()
	if !p.AppendCertsFromPEM(pem) {
		return nil, fmt.Errorf("tls: %s holds no PEM certificate", file)
	}
	return p, nil
}
