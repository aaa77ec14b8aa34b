package workers

import (
	"fmt"
	"net/http"
	"strings"

	commonpb "go.temporal.io/api/common/v1"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/temporal"
	"google.golang.org/protobuf/proto"

	"github.com/acecanvas/ace/internal/payloadcrypt"
)

// Payload metadata of an encrypted payload, as Temporal's encryption
// sample names them (temporalio/samples-go encryption/): the encoding says
// the data is sealed, the key id which key of the ring opens it.
const (
	MetadataEncodingEncrypted = "binary/encrypted"
	MetadataEncryptionKeyID   = "encryption-key-id"
	MetadataEncryptionCipher  = "encryption-cipher"
	cipherName                = "AES-256-GCM"
)

// PayloadCodec is Temporal's converter.PayloadCodec over a payloadcrypt
// ring: Encode seals each whole payload (data and metadata, so not even
// its original encoding shows) with the ring's current key; Decode opens
// every "binary/encrypted" payload with the key its id names and passes
// other payloads through unchanged (histories written before the codec was
// turned on still decode).
type PayloadCodec struct{ Ring *payloadcrypt.Ring }

var _ converter.PayloadCodec = PayloadCodec{}

// Encode implements converter.PayloadCodec.
func (c PayloadCodec) Encode(payloads []*commonpb.Payload) ([]*commonpb.Payload, error) {
	out := make([]*commonpb.Payload, len(payloads))
	for i, p := range payloads {
		plain, err := proto.Marshal(p)
		if err != nil {
			return nil, fmt.Errorf("payload codec: marshal payload %d: %w", i, err)
		}
		id, sealed, err := c.Ring.Seal(plain)
		if err != nil {
			return nil, fmt.Errorf("payload codec: %w", err)
		}
		out[i] = &commonpb.Payload{
			Metadata: map[string][]byte{
				converter.MetadataEncoding: []byte(MetadataEncodingEncrypted),
				MetadataEncryptionKeyID:    []byte(id),
				MetadataEncryptionCipher:   []byte(cipherName),
			},
			Data: sealed,
		}
	}
	return out, nil
}

// Decode implements converter.PayloadCodec. Errors name the payload's key
// id; a key the ring lacks says to add its file to ACE_PAYLOAD_OLD_KEY_FILES.
func (c PayloadCodec) Decode(payloads []*commonpb.Payload) ([]*commonpb.Payload, error) {
	out := make([]*commonpb.Payload, len(payloads))
	for i, p := range payloads {
		if string(p.GetMetadata()[converter.MetadataEncoding]) != MetadataEncodingEncrypted {
			out[i] = p
			continue
		}
		id := string(p.GetMetadata()[MetadataEncryptionKeyID])
		if id == "" {
			return nil, fmt.Errorf("payload codec: payload %d is %s but has no %s", i, MetadataEncodingEncrypted, MetadataEncryptionKeyID)
		}
		plain, err := c.Ring.Open(id, p.GetData())
		if err != nil {
			return nil, fmt.Errorf("payload codec: payload %d: %w", i, err)
		}
		var orig commonpb.Payload
		if err := proto.Unmarshal(plain, &orig); err != nil {
			return nil, fmt.Errorf("payload codec: payload %d: opened but not a Temporal payload: %w", i, err)
		}
		out[i] = &orig
	}
	return out, nil
}

// DataConverter is the default data converter with ring's codec on top; the
// default converter when ring is nil (no ACE_PAYLOAD_KEY_FILE).
func DataConverter(ring *payloadcrypt.Ring) converter.DataConverter {
	if ring == nil {
		return converter.GetDefaultDataConverter()
	}
	return converter.NewCodecDataConverter(converter.GetDefaultDataConverter(), PayloadCodec{Ring: ring})
}

// FailureConverter moves failures' messages and stack traces into a
// payload sealed by ring's codec (EncodeCommonAttributes), so that an
// activity error quoting an instruction or deck text is encrypted with the
// rest of the history; the SDK's default when ring is nil.
func FailureConverter(ring *payloadcrypt.Ring) converter.FailureConverter {
	if ring == nil {
		return temporal.GetDefaultFailureConverter()
	}
	return temporal.NewDefaultFailureConverter(temporal.DefaultFailureConverterOptions{
		DataConverter: DataConverter(ring), EncodeCommonAttributes: true,
	})
}

// CodecHandler serves Temporal's remote codec protocol (POST
// .../encode and .../decode, Payloads as protobuf JSON; the Web UI and
// `temporal --codec-endpoint` call it with a /{namespace} prefix) over the
// ring, with CORS for the Web UI at allowOrigin (none when empty).
func CodecHandler(ring *payloadcrypt.Ring, allowOrigin string) http.Handler {
	h := converter.NewPayloadCodecHTTPHandler(PayloadCodec{Ring: ring})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if allowOrigin != "" && r.Header.Get("Origin") == allowOrigin {
			w.Header().Set("Access-Control-Allow-Origin", allowOrigin)
			w.Header().Set("Access-Control-Allow-Credentials", "true")
			w.Header().Set("Vary", "Origin")
			if r.Method == http.MethodOptions {
				w.Header().Set("Access-Control-Allow-Methods", "POST")
				w.Header().Set("Access-Control-Allow-Headers", "Content-Type, X-Namespace, Authorization")
				w.WriteHeader(http.StatusOK)
				return
			}
		}
		if !strings.HasSuffix(r.URL.Path, "/encode") && !strings.HasSuffix(r.URL.Path, "/decode") {
			http.NotFound(w, r)
			return
		}
		h.ServeHTTP(w, r)
	})
}
