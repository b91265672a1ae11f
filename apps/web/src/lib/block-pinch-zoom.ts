/**
 * Blocks multi-touch pinch zoom (docs/product.md#shared-elements) with touch and gesture handlers, not with the
 * viewport's user-scalable=no (which accessibility audits refuse): a second finger's touches are cancelled; one finger
 * still scrolls. The CSS touch-action (styles.css) keeps browsers from starting a pinch on their own.
 */
export function blockPinchZoom() {
  const preventMultiTouch = (event: TouchEvent) => {
    if (event.touches.length > 1) event.preventDefault()
  }
  document.addEventListener('touchstart', preventMultiTouch, { passive: false })
  document.addEventListener('touchmove', preventMultiTouch, { passive: false })
  // Safari's own pinch gesture events.
  for (const type of ['gesturestart', 'gesturechange', 'gestureend'])
    document.addEventListener(type, (event) => event.preventDefault(), { passive: false })
}
