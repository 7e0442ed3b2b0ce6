#!/bin/sh
# Regenerates the load generator's call flow (see README.md):
#   1. a1-*.txt: ../../../corpus/appendix-a/corrected/ with the termination
#      IDs in layout form and, in a1-24, no empty Events descriptor;
#   2. a1-*.ber: those texts decoded by our text codec (pretty), mapped to
#      binary form and encoded to BER, by TestRegenerateFlow.
# Run from anywhere; writes only into this directory.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
corpus="$here/../../../corpus/appendix-a/corrected"

rm -f "$here"/a1-*.txt
for f in "$corpus"/a1-*.txt; do
	b=$(basename "$f")
	sed -e 's#A4444#00000001/00000000/00000000#g' \
	    -e 's#A4445#00000010/00000000/00000000#g' \
	    -e 's#A5555#00000011/00000000/00000000#g' \
	    -e 's#A5556#00000100/00000000/00000000#g' \
	    "$f" >"$here/$b"
done
# v1 (OTP's ASN.1, which our binary codecs follow) has no EventsDescriptor
# without a RequestID.
sed -i '/^              Events,$/d' "$here"/a1-24-*.txt

cd "$here/../../.."
MEGACO_FLOW_REGEN=1 go test ./internal/load/ -run '^TestRegenerateFlow$' -count=1
