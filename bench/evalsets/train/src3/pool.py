"""Print a pool of random but checksum-valid values (keys, cards, IBANs, wallets, UUIDs)
to paste by hand into the marked-up source texts. Not used by the build."""
import secrets, string, hashlib, base64, json, uuid, random, sys

AL = string.ascii_letters + string.digits
def r(n, al=AL): return ''.join(secrets.choice(al) for _ in range(n))
HEX = '0123456789abcdef'
B64U = AL + '-_'

# --- keccak256 (for EIP-55) ---
RC = [0x0000000000000001,0x0000000000008082,0x800000000000808A,0x8000000080008000,0x000000000000808B,
0x0000000080000001,0x8000000080008081,0x8000000000008009,0x000000000000008A,0x0000000000000088,
0x0000000080008009,0x000000008000000A,0x000000008000808B,0x800000000000008B,0x8000000000008089,
0x8000000000008003,0x8000000000008002,0x8000000000000080,0x000000000000800A,0x800000008000000A,
0x8000000080008081,0x8000000000008080,0x0000000080000001,0x8000000080008008]
ROT = [[0,36,3,41,18],[1,44,10,45,2],[62,6,43,15,61],[28,55,25,21,56],[27,20,39,8,14]]
M = (1<<64)-1
def rol(x,n): return ((x<<n)|(x>>(64-n)))&M if n else x
def kf(A):
    for rc in RC:
        C=[A[x][0]^A[x][1]^A[x][2]^A[x][3]^A[x][4] for x in range(5)]
        D=[C[(x-1)%5]^rol(C[(x+1)%5],1) for x in range(5)]
        A=[[A[x][y]^D[x] for y in range(5)] for x in range(5)]
        B=[[0]*5 for _ in range(5)]
        for x in range(5):
            for y in range(5):
                B[y][(2*x+3*y)%5]=rol(A[x][y],ROT[x][y])
        A=[[B[x][y]^((~B[(x+1)%5][y])&B[(x+2)%5][y]) for y in range(5)] for x in range(5)]
        A[0][0]^=rc
    return A
def keccak256(data):
    rate=136; p=bytearray(data)+b'\x01'
    while len(p)%rate: p+=b'\x00'
    p[-1]|=0x80
    A=[[0]*5 for _ in range(5)]
    for i in range(0,len(p),rate):
        blk=p[i:i+rate]
        for j in range(rate//8):
            x,y=j%5,j//5
            A[x][y]^=int.from_bytes(blk[8*j:8*j+8],'little')
        A=kf(A)
    out=b''
    for j in range(4):
        x,y=j%5,j//5; out+=A[x][y].to_bytes(8,'little')
    return out
assert keccak256(b'').hex()=='c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470'
def eip55(addr_hex):
    a=addr_hex.lower(); h=keccak256(a.encode()).hex()
    return '0x'+''.join(c.upper() if c.isalpha() and int(h[i],16)>=8 else c for i,c in enumerate(a))

B58='123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'
def b58check(ver, payload):
    d=bytes([ver])+payload; d+=hashlib.sha256(hashlib.sha256(d).digest()).digest()[:4]
    n=int.from_bytes(d,'big'); s=''
    while n: n,m=divmod(n,58); s=B58[m]+s
    return '1'*(len(d)-len(d.lstrip(b'\0')))+s
CH='qpzry9x8gf2tvdw0s3jn54khce6mua7l'
def polymod(v):
    G=[0x3b6a57b2,0x26508e6d,0x1ea119fa,0x3d4233dd,0x2a1462b3]; c=1
    for x in v:
        b=c>>25; c=(c&0x1ffffff)<<5^x
        for i in range(5): c^=G[i] if (b>>i)&1 else 0
    return c
def bech32(hrp, witver, prog):
    acc=0;bits=0;d=[witver]
    for b in prog:
        acc=(acc<<8)|b; bits+=8
        while bits>=5: bits-=5; d.append((acc>>bits)&31)
    if bits: d.append((acc<<(5-bits))&31)
    e=[ord(x)>>5 for x in hrp]+[0]+[ord(x)&31 for x in hrp]
    pm=polymod(e+d+[0]*6)^1
    d+= [(pm>>5*(5-i))&31 for i in range(6)]
    return hrp+'1'+''.join(CH[x] for x in d)

def luhn_complete(prefix, length):
    body=prefix+''.join(secrets.choice('0123456789') for _ in range(length-len(prefix)-1))
    for c in '0123456789':
        s=body+c; tot=0
        for i,ch in enumerate(reversed(s)):
            d=int(ch)
            if i%2: d*=2; d-= 9 if d>9 else 0
            tot+=d
        if tot%10==0: return s
LENS={'FR':27,'ES':24,'DE':22,'BE':16,'CH':21,'GB':22,'IT':27,'NL':18,'AT':20,'LU':20,'PT':25,'MX':0}
def iban(cc):
    n=LENS[cc]-4
    if cc=='GB': bban=r(4,string.ascii_uppercase)+r(14,string.digits)
    elif cc=='NL': bban=r(4,string.ascii_uppercase)+r(10,string.digits)
    elif cc=='IT': bban=r(1,string.ascii_uppercase)+r(22,string.digits)
    else: bban=r(n,string.digits)
    num=''.join(str(int(c,36)) for c in bban+cc+'00')
    return cc+'%02d'%(98-int(num)%97)+bban

def b64u(b): return base64.urlsafe_b64encode(b).rstrip(b'=').decode()
def jwt():
    h=b64u(json.dumps({"alg":"HS256","typ":"JWT"},separators=(',',':')).encode())
    p=b64u(json.dumps({"sub":str(random.randint(10000,99999)),"iat":random.randint(1.70e9,1.79e9),"scope":"api"},separators=(',',':')).encode())
    return h+'.'+p+'.'+b64u(secrets.token_bytes(32))

if __name__ == '__main__':
  k=int(sys.argv[1]) if len(sys.argv)>1 else 3
  for _ in range(k):
      print('openai   sk-proj-'+r(20)+'T3BlbkFJ'+r(20)+' | sk-'+r(48))
      print('anthropic sk-ant-api03-'+r(93,B64U)+'AA')
      print('aws      AKIA'+r(16,string.ascii_uppercase+'234567')+'  '+r(40,AL+'+/'))
      print('github   ghp_'+r(36)+'  github_pat_11'+r(20,string.ascii_uppercase+string.digits)+'_'+r(59))
      print('gitlab   glpat-'+r(20,B64U))
      print('slack    xoxb-'+r(11,string.digits)+'-'+r(13,string.digits)+'-'+r(24)+'  xoxp-'+r(11,string.digits)+'-'+r(12,string.digits)+'-'+r(13,string.digits)+'-'+r(32,HEX))
      print('slackhk  https://hooks.slack.com/services/T'+r(8,string.ascii_uppercase+string.digits)+'/B'+r(10,string.ascii_uppercase+string.digits)+'/'+r(24))
      print('stripe   sk_live_51'+r(97)+'  sk_test_'+r(24)+'  rk_live_'+r(24)+'  whsec_'+r(32))
      print('google   AIza'+r(35,B64U))
      print('twilio   SK'+r(32,HEX)+'  '+r(32,HEX))
      print('sendgrid SG.'+r(22,B64U)+'.'+r(43,B64U))
      print('hf       hf_'+r(34,string.ascii_letters))
      print('npm      npm_'+r(36)+'  pypi-AgEIcHlwaS5vcmc'+r(50,B64U))
      print('azure    '+base64.b64encode(secrets.token_bytes(64)).decode())
      print('mailgun  key-'+r(32,HEX))
      print('discord  '+b64u(str(random.randint(10**17,10**18)).encode())+'.'+r(6,B64U)+'.'+r(27,B64U))
      print('telegram '+str(random.randint(10**9,7*10**9))+':AA'+r(33,B64U))
      print('jwt      '+jwt())
      print('hex32    '+secrets.token_hex(16)+'  hex64 '+secrets.token_hex(32)+'  b64 '+base64.b64encode(secrets.token_bytes(24)).decode())
      print('sha1     '+secrets.token_hex(20)+'  md5 '+secrets.token_hex(16))
      print('uuid     '+str(uuid.uuid4()))
      print('btc      '+b58check(0,secrets.token_bytes(20))+'  '+b58check(5,secrets.token_bytes(20))+'  '+bech32('bc',0,secrets.token_bytes(20)))
      print('eth      '+eip55(secrets.token_hex(20)))
      print('ltc/doge '+b58check(0x30,secrets.token_bytes(20))+'  '+b58check(0x1e,secrets.token_bytes(20)))
      print('cards    visa '+luhn_complete('4',16)+' mc '+luhn_complete(random.choice(['51','53','55','2221','2720']),16)+' amex '+luhn_complete(random.choice(['34','37']),15)+' disc '+luhn_complete('6011',16)+' jcb '+luhn_complete('3528',16))
      print('iban     '+' '.join(iban(c) for c in ['FR','ES','DE','BE','CH','GB','IT','NL','AT','LU','PT']))
      print('pem      '+base64.b64encode(b'\x30\x77\x02\x01\x01\x04\x20'+secrets.token_bytes(32)+b'\xa0\x0a\x06\x08\x2a\x86\x48\xce\x3d\x03\x01\x07\xa1\x44\x03\x42\x00\x04'+secrets.token_bytes(64)).decode())
      print('ssh-pub  ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI'+base64.b64encode(secrets.token_bytes(32)).decode()[1:])
      print('---')
