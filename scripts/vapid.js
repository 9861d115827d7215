// Prints a new VAPID key pair for web push (issue 42), as the lines to add to .env:
//   npm run vapid
// Keep them: browsers' subscriptions are bound to the public key, so new keys end every
// member's push subscriptions (they turn it on again in /perfil). A laptop without them uses a
// pair generated once into DATA_DIR/vapid-keys.json.
import webpush from 'web-push'

const { publicKey, privateKey } = webpush.generateVAPIDKeys()
const subject = process.argv[2] ?? 'mailto:you@your.domain'
console.log(`VAPID_PUBLIC_KEY=${publicKey}`)
console.log(`VAPID_PRIVATE_KEY=${privateKey}`)
console.log(`VAPID_SUBJECT=${subject}`)
