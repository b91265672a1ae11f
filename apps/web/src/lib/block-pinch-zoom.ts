/** Blocks multi-touch pinch zoom (SPEC §1); the viewport meta tag disables it where browsers honour it. */
export function blockPinchZoom() {
  const preventMultiTouch = (event: TouchEvent) => {
    if (event.touches.length > 1) event.preventDefault()
  }
  document.addEventListener('touchstart', preventMultiTouch, { passive: false })
  document.addEventListener('touchmove', preventMultiTouch, { passive: false })
  // Safari's own pinch gesture events.
  document.addEventListener('gesturestart', (event) => event.preventDefault())
}
