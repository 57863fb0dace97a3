/**
 * SPEC §5 mobile phone: 11 digits starting with 1 and a known second/third digit pair. Shared by
 * the client's validator (src/lib/validators.ts mobilePhone) and the server's user input.
 */
export const mobilePhonePattern = /^1(3[0-9]|4[01456879]|5[0-35-9]|6[2567]|7[0-8]|8[0-9]|9[0-35-9])\d{8}$/
