/**
 * WordPress nonces as the Store API uses them (`wp_create_nonce( 'wc_store_api' )` /
 * `wp_verify_nonce`, wp-includes/pluggable.php):
 * - a nonce is `substr( wp_hash( tick|action|uid|session token, 'nonce' ), -12, 10 )`, wp_hash
 *   being an HMAC-MD5 keyed with the site's nonce salt;
 * - the tick is `ceil( time() / ( nonce_life / 2 ) )` (wp_nonce_tick, nonce_life one day by
 *   default), and a nonce verifies in its own tick and the next one: valid 12 to 24 hours;
 * - the uid is the logged-in user, 0 for a guest: WC_Session_Handler only swaps in the guest's
 *   session id for actions starting with "woocommerce" (maybe_update_nonce_user_logged_out,
 *   includes/class-wc-session-handler.php) and the Store API's own SessionHandler (the one a
 *   Cart-Token selects) registers no such filter, so for 'wc_store_api' every guest of the site
 *   shares one nonce per tick, whatever cart it came with;
 * - the session token is the logged-in cookie's (wp_get_session_token): '' for a guest.
 */
import { createHmac, randomBytes } from 'node:crypto';

const STORE_API_NONCE_ACTION = 'wc_store_api';

export class Nonces {
  private readonly salt = randomBytes(32).toString('hex');

  constructor(
    private readonly nowSeconds: () => number,
    /** `nonce_life` filter, seconds (DAY_IN_SECONDS by default). */
    private readonly lifeSeconds = 86_400,
  ) {}

  private tick(): number {
    return Math.ceil(this.nowSeconds() / (this.lifeSeconds / 2));
  }

  private hash(tick: number, action: string, uid: number, token: string): string {
    const hex = createHmac('md5', this.salt).update(`${tick}|${action}|${uid}|${token}`).digest('hex');
    return hex.slice(-12, -2);
  }

  /** wp_create_nonce for a guest (uid 0, no session token). */
  create(action = STORE_API_NONCE_ACTION): string {
    return this.hash(this.tick(), action, 0, '');
  }

  /** wp_verify_nonce: 1 in the current tick, 2 in the previous one, false otherwise. */
  verify(nonce: string, action = STORE_API_NONCE_ACTION): 1 | 2 | false {
    if (!nonce) return false;
    const tick = this.tick();
    if (nonce === this.hash(tick, action, 0, '')) return 1;
    if (nonce === this.hash(tick - 1, action, 0, '')) return 2;
    return false;
  }
}
