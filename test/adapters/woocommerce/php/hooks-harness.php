<?php
/**
 * Drives the must-use plugin's hooks with just enough of WordPress and WooCommerce stubbed: the
 * order in which a block checkout fires them (the draft order's update_order_meta on GET
 * /checkout and again on submission, then order_processed), and a classic checkout. Prints one
 * JSON object with what each step left behind.
 */
define( 'ABSPATH', __DIR__ );

$hooks = array();
function add_action( $name, $callback, $priority = 10, $accepted_args = 1 ) {
	global $hooks;
	$hooks[ $name ][] = array( $callback, $accepted_args );
}
function do_action( $name, ...$args ) {
	global $hooks;
	foreach ( $hooks[ $name ] ?? array() as list( $callback, $accepted ) ) {
		$callback( ...array_slice( $args, 0, $accepted ) );
	}
}
function sanitize_text_field( $text ) {
	return trim( strip_tags( (string) $text ) );
}
function wp_unslash( $value ) {
	return stripslashes( $value );
}
$endpoint_data = array();
function woocommerce_store_api_register_endpoint_data( $args ) {
	global $endpoint_data;
	$endpoint_data[ $args['endpoint'] . '/' . $args['namespace'] ] = $args;
}

class Session {
	public $data = array();
	public function set_customer_session_cookie( $set ) {}
	public function get( $key ) {
		return $this->data[ $key ] ?? null;
	}
	public function set( $key, $value ) {
		$this->data[ $key ] = $value;
	}
}
class WC_Order {
	public $meta  = array();
	public $saved = array();
	public function update_meta_data( $key, $value ) {
		$this->meta[ $key ] = $value;
	}
	public function save_meta_data() {
		$this->saved = $this->meta;
	}
}
$woocommerce = (object) array( 'session' => new Session() );
function WC() {
	global $woocommerce;
	return $woocommerce;
}

require $argv[1];

$report = array();

// Block checkout: the link, the checkout page (draft order), the submission.
$_GET['proto_ref'] = 'chk_block';
do_action( 'wp_loaded' );
$draft = new WC_Order();
do_action( 'woocommerce_store_api_checkout_update_order_meta', $draft );
$report['after_draft'] = array( 'session' => WC()->session->get( 'proto_ref' ), 'saved' => $draft->saved );
do_action( 'woocommerce_store_api_checkout_update_order_meta', $draft );
do_action( 'woocommerce_store_api_checkout_order_processed', $draft );
$report['block'] = array( 'session' => WC()->session->get( 'proto_ref' ), 'saved' => $draft->saved );

// Classic checkout.
$_GET['proto_ref'] = 'chk_classic';
do_action( 'wp_loaded' );
$classic = new WC_Order();
do_action( 'woocommerce_checkout_create_order', $classic, array() );
do_action( 'woocommerce_checkout_order_processed', 42, array(), $classic );
$report['classic'] = array( 'session' => WC()->session->get( 'proto_ref' ), 'saved' => $classic->saved );

// Store API checkout of the gateway (store_charged): the extension is registered once WooCommerce
// Blocks load; the checkout request's extensions carry the reference, written before payment.
do_action( 'woocommerce_blocks_loaded' );
$extension = $endpoint_data['checkout/proto-gateway'];
$charged   = new WC_Order();
do_action( 'woocommerce_store_api_checkout_update_order_from_request', $charged, array( 'extensions' => array() ) );
$report['store_charged_without'] = $charged->meta;
$request = array( 'extensions' => array( 'proto-gateway' => array( 'reference' => 'chk_store', 'payment_handler' => 'card' ) ) );
do_action( 'woocommerce_store_api_checkout_update_order_from_request', $charged, $request );
$report['store_charged'] = array(
	'meta'   => $charged->meta,
	'schema' => array_keys( $extension['schema_callback']() ),
	'answer' => $extension['data_callback'](),
);

echo json_encode( $report );
