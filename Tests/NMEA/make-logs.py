import sys
def cs(body):
    c=0
    for ch in body: c^=ord(ch)
    return "$%s*%02X" % (body, c)
def dm(v, lat):
    a=abs(v); d=int(a); m=(a-d)*60
    return ("%02d%07.4f" % (d,m) if lat else "%03d%07.4f" % (d,m)), ("N" if v>=0 else "S") if lat else ("E" if v>=0 else "W")
def epoch(t, fix, lat=46.5201, lon=6.6334, alt=495.2):
    h=t//3600; mi=t%3600//60; s=t%60
    hms="%02d%02d%02d.00" % (h,mi,s)
    la,ns=dm(lat,True); lo,ew=dm(lon,False)
    out=[]
    if fix:
        out.append(cs("GPRMC,%s,A,%s,%s,%s,%s,4.86,271.2,211126,,,A" % (hms,la,ns,lo,ew)))
        out.append(cs("GPGGA,%s,%s,%s,%s,%s,1,09,0.9,%.1f,M,48.0,M,," % (hms,la,ns,lo,ew,alt)))
        out.append(cs("GPGSA,A,3,02,05,07,09,13,15,18,20,30,,,,1.6,0.9,1.3"))
        out.append(cs("GPGSV,3,1,10,02,45,100,40,05,30,200,38,07,60,050,42,09,20,300,35"))
        out.append(cs("GPGSV,3,2,10,13,50,150,41,15,10,250,30,18,70,020,44,20,35,120,39"))
        out.append(cs("GPGSV,3,3,10,30,25,330,36,31,05,010,"))
    else:
        out.append(cs("GPRMC,%s,V,,,,,,,211126,,,N" % hms))
        out.append(cs("GPGGA,%s,,,,,0,00,99.99,,,,,," % hms))
        out.append(cs("GPGSA,A,1,,,,,,,,,,,,,99.99,99.99,99.99"))
    return out
kind=sys.argv[1]
lines=["# Pinhole test log (%s): written for the gpsd tests, a receiver near Lausanne." % kind]
t=9*3600+21*60
if kind=="fix": pattern=[True]*40
elif kind=="nofix": pattern=[False]*40
elif kind=="loss": pattern=[True]*20+[False]*400
for i,f in enumerate(pattern):
    lines+=epoch(t+i,f)
print("\n".join(lines))
