// Container liveness probe: GET /healthz on this container's own listener, over HTTPS when the
// gateway serves TLS (its certificate names the public host, not 127.0.0.1, so it is not verified:
// the probe never leaves the container). With TLS_CLIENT_CERT=require the probe has no client
// certificate to show, so it only checks that the listener accepts connections.
// Exit 0 when alive, 1 otherwise.
import { request as http } from 'node:http';
import { request as https } from 'node:https';
import { connect } from 'node:net';

const port = Number(process.env.PORT || 8080);
const fail = () => process.exit(1);

if (process.env.TLS_CLIENT_CERT === 'require') {
  const socket = connect({ host: '127.0.0.1', port }, () => process.exit(0));
  socket.setTimeout(2000, fail).on('error', fail);
} else {
  const send = process.env.TLS_CERT_FILE ? https : http;
  const req = send({ host: '127.0.0.1', port, path: '/healthz', timeout: 2000, rejectUnauthorized: false }, (res) => {
    res.resume();
    process.exit(res.statusCode === 200 ? 0 : 1);
  });
  req.on('timeout', () => req.destroy(new Error('timeout'))).on('error', fail);
  req.end();
}
