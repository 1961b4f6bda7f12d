import { describe, expect, it } from 'vitest'
import { commonPasswordStats, isCommonPassword } from './common-passwords.ts'

describe('isCommonPassword', () => {
  it.each([
    'password',
    'Password123!',
    '123456789012',
    'qwertyuiopasdf',
    'aaaaaaaaaaaaaa',
    'abcdefghijklmn',
    '  passwordpassword  ',
    'passwordpassword123',
    'Password2024!',
    'PASSWORDPASSWORD',
    'iloveyouiloveyou',
    'trustno1trustno1',
    '1q2w3e4r5t6y',
    '123456789012345',
    '543210987654321',
    'nmlkjihgfedcba',
    '!!!!!!!!!!!!',
    'LetMeInLetMeIn!!',
  ])('refuses %j', (password) => {
    expect(isCommonPassword(password)).toBe(true)
  })

  it.each(['plum-orbit-violet-kettle', 'Zq8#mT2!vR9$wL4', 'correct horse battery staple 7', '847261938475', 'tangerine lighthouse 19'])(
    'accepts %j',
    (password) => {
      expect(isCommonPassword(password)).toBe(false)
    },
  )
})

describe('the list', () => {
  it('holds at least 1,000 passwords, at least 100 of them 12 characters or longer', () => {
    const { count, longCount } = commonPasswordStats()
    expect(count).toBeGreaterThanOrEqual(1000)
    expect(longCount).toBeGreaterThanOrEqual(100)
  })
})
