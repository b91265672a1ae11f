import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { brotliCompressSync, gzipSync } from 'node:zlib'

/** A copy of a built web app in a new temporary directory. */
export function copyBuild(dist: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'solpledge-build-'))
  fs.cpSync(dist, dir, { recursive: true })
  return dir
}

const TEXT = /\.(js|css|html|json|webmanifest)$/

/**
 * The next version of a build, as a deploy brings it: every hashed file under assets/ under a new name (a new random
 * hash: never an earlier version's name, which the browser's cache would answer with that version's file), every
 * reference to it rewritten (the page, the chunks, the preload list, the service worker's
 * precache list, whose index.html revision changes too), compressed copies made again — and the old names gone, as
 * when a deploy replaces the directory. Returns the new build's directory.
 */
export function nextBuild(dist: string) {
  const dir = copyBuild(dist)
  const assets = path.join(dir, 'assets')
  const renames = new Map<string, string>()
  for (const name of fs.readdirSync(assets)) {
    const match = /^(.+-)[\w-]{8}\.(js|css)$/.exec(name)
    if (match) renames.set(name, `${match[1]}${randomBytes(6).toString('base64url')}.${match[2]}`)
  }
  const files = fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).map((file) => path.join(dir, file))
  for (const file of files) {
    if (/\.(br|gz)$/.test(file)) fs.rmSync(file)
    else if (TEXT.test(file) && fs.statSync(file).isFile()) {
      let text = fs.readFileSync(file, 'utf8')
      for (const [from, to] of renames) text = text.replaceAll(from, to)
      if (path.basename(file) === 'sw.js')
        text = text.replace(
          /"revision":"[0-9a-f]+","url":"index\.html"/,
          `"revision":"${randomBytes(16).toString('hex')}","url":"index.html"`,
        )
      fs.writeFileSync(file, text)
    }
  }
  for (const [from, to] of renames) fs.renameSync(path.join(assets, from), path.join(assets, to))
  for (const file of fs.readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    const full = path.join(dir, file)
    if (!TEXT.test(file) || file.startsWith('.vite') || path.basename(file) === 'sw.js') continue
    const text = fs.readFileSync(full)
    fs.writeFileSync(`${full}.br`, brotliCompressSync(text))
    fs.writeFileSync(`${full}.gz`, gzipSync(text))
  }
  return dir
}
