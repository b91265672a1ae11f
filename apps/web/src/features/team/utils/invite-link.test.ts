import { describe, expect, it } from 'vitest'
import { inviteLink } from './invite-link.ts'

describe('inviteLink', () => {
  it('puts the address in the code parameter of the home page', () => {
    expect(inviteLink('https://app.example', '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin')).toBe(
      'https://app.example/?code=9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin',
    )
  })
})
