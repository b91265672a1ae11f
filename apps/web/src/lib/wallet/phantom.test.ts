import { expect, it } from 'vitest'
import { phantomBrowseUrl } from './phantom.ts'

it('links to the current page inside the Phantom browser', () => {
  expect(phantomBrowseUrl('https://app.example/team?code=Ab1', 'https://app.example')).toBe(
    'https://phantom.app/ul/browse/https%3A%2F%2Fapp.example%2Fteam%3Fcode%3DAb1?ref=https%3A%2F%2Fapp.example',
  )
})
