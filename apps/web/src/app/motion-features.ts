// Loaded on demand by <LazyMotion> so the animation engine is not part of the first chunk.
export { domAnimation as default } from 'motion/react'
