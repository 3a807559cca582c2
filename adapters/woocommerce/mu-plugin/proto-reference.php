<?php
/**
 * Plugin Name: Proto gateway checkout reference
 * Description: Keeps the gateway's checkout reference on the order it becomes (_proto_reference):
 * the proto_ref of a checkout link, and the reference a store-charged Store API checkout sends.
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

/**
 * The reference a Store API checkout of the gateway named (store_charged), as written on its order
 * in this request; the checkout's answer echoes it (extensions.proto-gateway.reference) so the
 * gateway knows it need not write it afterwards.
 *
 * @param string|null $reference The reference just written, or null to read it.
 * @return string|null
 */
function proto_reference_written( $reference = null ) {
	static $written = null;
	if ( null !== $reference ) {
		$written = $reference;
	}
	return $written;
}

// store_charged: the checkout's `extensions` carry the reference (a Store API extension schema).
add_action(
	'woocommerce_blocks_loaded',
	function () {
		if ( ! function_exists( 'woocommerce_store_api_register_endpoint_data' ) ) {
			return;
		}
		woocommerce_store_api_register_endpoint_data(
			array(
				'endpoint'        => 'checkout',
				'namespace'       => 'proto-gateway',
				'schema_callback' => function () {
					return array(
						'reference'       => array(
							'description' => 'The gateway checkout this order is placed for.',
							'type'        => array( 'string', 'null' ),
							'context'     => array( 'view', 'edit' ),
						),
						'payment_handler' => array(
							'description' => 'The gateway payment handler the buyer paid with.',
							'type'        => array( 'string', 'null' ),
							'context'     => array( 'view', 'edit' ),
						),
					);
				},
				'data_callback'   => function () {
					return array( 'reference' => proto_reference_written() );
				},
			)
		);
	}
);

/**
 * Writes the reference a Store API checkout sent on its order before the payment gateway runs
 * (the Store API saves the order right after this action), so an order whose answer was lost can
 * still be found by its reference.
 *
 * @param WC_Order        $order   The order being placed.
 * @param WP_REST_Request $request The checkout request.
 */
function proto_reference_from_request( $order, $request ) {
	$data = $request['extensions']['proto-gateway'] ?? null;
	if ( ! is_array( $data ) || empty( $data['reference'] ) || ! $order instanceof WC_Order ) {
		return;
	}
	$reference = sanitize_text_field( $data['reference'] );
	$order->update_meta_data( '_proto_reference', $reference );
	if ( ! empty( $data['payment_handler'] ) ) {
		$order->update_meta_data( '_proto_payment_handler', sanitize_text_field( $data['payment_handler'] ) );
	}
	proto_reference_written( $reference );
}
add_action( 'woocommerce_store_api_checkout_update_order_from_request', 'proto_reference_from_request', 10, 2 );
