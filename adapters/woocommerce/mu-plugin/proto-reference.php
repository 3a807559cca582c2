<?php
/**
 * Plugin Name: Proto gateway checkout reference
 * Description: Keeps the proto_ref of a checkout link on the order it becomes (_proto_reference).
 *
 * Install as wp-content/mu-plugins/proto-reference.php (docs/adapters/woocommerce.md).
 */

defined( 'ABSPATH' ) || exit;

// The checkout link (/checkout-link/?...&proto_ref=<checkout id>) keeps the reference in the buyer's session.
add_action(
	'wp_loaded',
	function () {
		if ( isset( $_GET['proto_ref'] ) && function_exists( 'WC' ) && WC()->session ) {
			WC()->session->set_customer_session_cookie( true );
			WC()->session->set( 'proto_ref', sanitize_text_field( wp_unslash( $_GET['proto_ref'] ) ) );
		}
	},
	30
);

/**
 * Writes the session's reference onto the order just placed and saves it at once; only then is
 * the reference forgotten. Run when the order is processed, never when the block checkout creates
 * its draft order (woocommerce_store_api_checkout_update_order_meta also fires on GET /checkout).
 *
 * @param WC_Order $order The order placed.
 */
function proto_reference_keep( $order ) {
	if ( ! function_exists( 'WC' ) || ! WC()->session || ! $order instanceof WC_Order ) {
		return;
	}
	$reference = WC()->session->get( 'proto_ref' );
	if ( ! $reference ) {
		return;
	}
	$order->update_meta_data( '_proto_reference', $reference );
	$order->save_meta_data();
	WC()->session->set( 'proto_ref', null );
}

// Block checkout: the order was placed through POST /wc/store/v1/checkout.
add_action( 'woocommerce_store_api_checkout_order_processed', 'proto_reference_keep' );

// Classic checkout: the order was created and its data saved.
add_action(
	'woocommerce_checkout_order_processed',
	function ( $order_id, $posted_data, $order ) {
		proto_reference_keep( $order );
	},
	10,
	3
);
