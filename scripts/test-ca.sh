#!/usr/bin/env bash
# Writes the test certificate authority and the loopback server certificate in test/fixtures/tls/
# (the TLS tests: a company CA that Node does not trust). Run again only to replace them; they
# are valid for 100 years, so the tests never depend on openssl or on today's date.
set -euo pipefail
cd "$(dirname "$0")/../test/fixtures/tls"
days=36500
openssl req -x509 -newkey rsa:2048 -nodes -days "$days" -subj "/CN=svc-sdk test CA" \
  -keyout ca.key -out ca.pem -addext "basicConstraints=critical,CA:TRUE" \
  -addext "keyUsage=critical,keyCertSign,cRLSign" 2>/dev/null
openssl req -newkey rsa:2048 -nodes -subj "/CN=localhost" -keyout server.key -out server.csr 2>/dev/null
printf 'subjectAltName=DNS:localhost,IP:127.0.0.1,IP:::1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n' >server.ext
openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days "$days" \
  -extfile server.ext -out server.pem 2>/dev/null
# A second, unrelated CA: trusting it must not make the server trusted.
openssl req -x509 -newkey rsa:2048 -nodes -days "$days" -subj "/CN=svc-sdk other CA" \
  -keyout other-ca.key -out other-ca.pem 2>/dev/null
rm -f server.csr server.ext ca.srl ca.key other-ca.key
